// Original file: proto/containerd/events/task.proto

import type { Mount as _containerd_types_Mount, Mount__Output as _containerd_types_Mount__Output } from '../../containerd/types/Mount.ts';
import type { TaskIO as _containerd_events_TaskIO, TaskIO__Output as _containerd_events_TaskIO__Output } from '../../containerd/events/TaskIO.ts';

export interface TaskCreate {
  'containerId'?: (string);
  'bundle'?: (string);
  'rootfs'?: (_containerd_types_Mount)[];
  'io'?: (_containerd_events_TaskIO | null);
  'checkpoint'?: (string);
  'pid'?: (number);
}

export interface TaskCreate__Output {
  'containerId': (string);
  'bundle': (string);
  'rootfs': (_containerd_types_Mount__Output)[];
  'io': (_containerd_events_TaskIO__Output | null);
  'checkpoint': (string);
  'pid': (number);
}
