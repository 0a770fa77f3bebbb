// Original file: proto/containerd/events/task.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface TaskExit {
  'containerId'?: (string);
  'id'?: (string);
  'pid'?: (number);
  'exitStatus'?: (number);
  'exitedAt'?: (_google_protobuf_Timestamp | null);
}

export interface TaskExit__Output {
  'containerId': (string);
  'id': (string);
  'pid': (number);
  'exitStatus': (number);
  'exitedAt': (_google_protobuf_Timestamp__Output | null);
}
