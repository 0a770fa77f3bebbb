// Original file: proto/containerd/services/events/v1/events.proto


export interface SubscribeRequest {
  'filters'?: (string)[];
}

export interface SubscribeRequest__Output {
  'filters': (string)[];
}
