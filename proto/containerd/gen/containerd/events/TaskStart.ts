// Original file: proto/containerd/events/task.proto


export interface TaskStart {
  'containerId'?: (string);
  'pid'?: (number);
}

export interface TaskStart__Output {
  'containerId': (string);
  'pid': (number);
}
