// Original file: proto/containerd/events/task.proto


export interface TaskResumed {
  'containerId'?: (string);
}

export interface TaskResumed__Output {
  'containerId': (string);
}
