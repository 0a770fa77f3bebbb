// Original file: proto/containerd/events/container.proto


export interface ContainerDelete {
  'id'?: (string);
}

export interface ContainerDelete__Output {
  'id': (string);
}
