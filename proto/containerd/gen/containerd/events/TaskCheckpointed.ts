// Original file: proto/containerd/events/task.proto


export interface TaskCheckpointed {
  'containerId'?: (string);
  'checkpoint'?: (string);
}

export interface TaskCheckpointed__Output {
  'containerId': (string);
  'checkpoint': (string);
}
