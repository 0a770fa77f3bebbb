// Original file: proto/containerd/events/task.proto


export interface TaskExecAdded {
  'containerId'?: (string);
  'execId'?: (string);
}

export interface TaskExecAdded__Output {
  'containerId': (string);
  'execId': (string);
}
