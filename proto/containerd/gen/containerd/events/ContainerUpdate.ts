// Original file: proto/containerd/events/container.proto


export interface ContainerUpdate {
  'id'?: (string);
  'image'?: (string);
  'labels'?: ({[key: string]: string});
  'snapshotKey'?: (string);
}

export interface ContainerUpdate__Output {
  'id': (string);
  'image': (string);
  'labels': ({[key: string]: string});
  'snapshotKey': (string);
}
