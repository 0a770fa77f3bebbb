// Original file: proto/runtime/v1/api.proto


export interface KeyValue {
  'key'?: (string);
  'value'?: (Buffer | Uint8Array | string);
}

export interface KeyValue__Output {
  'key': (string);
  'value': (Buffer);
}
