// Original file: proto/containerd/events/task.proto


export interface TaskOOM {
  'containerId'?: (string);
}

export interface TaskOOM__Output {
  'containerId': (string);
}
