// Original file: proto/containerd/events/task.proto


export interface TaskExecStarted {
  'containerId'?: (string);
  'execId'?: (string);
  'pid'?: (number);
}

export interface TaskExecStarted__Output {
  'containerId': (string);
  'execId': (string);
  'pid': (number);
}
