// Original file: proto/runtime/v1/api.proto


export interface StartContainerRequest {
  'containerId'?: (string);
}

export interface StartContainerRequest__Output {
  'containerId': (string);
}
