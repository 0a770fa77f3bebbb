// Original file: proto/runtime/v1/api.proto


export interface SELinuxOption {
  'user'?: (string);
  'role'?: (string);
  'type'?: (string);
  'level'?: (string);
}

export interface SELinuxOption__Output {
  'user': (string);
  'role': (string);
  'type': (string);
  'level': (string);
}
