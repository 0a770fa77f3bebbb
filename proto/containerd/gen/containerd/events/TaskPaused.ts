// Original file: proto/containerd/events/task.proto


export interface TaskPaused {
  'containerId'?: (string);
}

export interface TaskPaused__Output {
  'containerId': (string);
}
