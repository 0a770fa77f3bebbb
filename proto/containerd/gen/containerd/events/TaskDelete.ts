// Original file: proto/containerd/events/task.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface TaskDelete {
  'containerId'?: (string);
  'pid'?: (number);
  'exitStatus'?: (number);
  'exitedAt'?: (_google_protobuf_Timestamp | null);
  'id'?: (string);
}

export interface TaskDelete__Output {
  'containerId': (string);
  'pid': (number);
  'exitStatus': (number);
  'exitedAt': (_google_protobuf_Timestamp__Output | null);
  'id': (string);
}
