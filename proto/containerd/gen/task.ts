import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { TaskCheckpointed as _containerd_events_TaskCheckpointed, TaskCheckpointed__Output as _containerd_events_TaskCheckpointed__Output } from './containerd/events/TaskCheckpointed.ts';
import type { TaskCreate as _containerd_events_TaskCreate, TaskCreate__Output as _containerd_events_TaskCreate__Output } from './containerd/events/TaskCreate.ts';
import type { TaskDelete as _containerd_events_TaskDelete, TaskDelete__Output as _containerd_events_TaskDelete__Output } from './containerd/events/TaskDelete.ts';
import type { TaskExecAdded as _containerd_events_TaskExecAdded, TaskExecAdded__Output as _containerd_events_TaskExecAdded__Output } from './containerd/events/TaskExecAdded.ts';
import type { TaskExecStarted as _containerd_events_TaskExecStarted, TaskExecStarted__Output as _containerd_events_TaskExecStarted__Output } from './containerd/events/TaskExecStarted.ts';
import type { TaskExit as _containerd_events_TaskExit, TaskExit__Output as _containerd_events_TaskExit__Output } from './containerd/events/TaskExit.ts';
import type { TaskIO as _containerd_events_TaskIO, TaskIO__Output as _containerd_events_TaskIO__Output } from './containerd/events/TaskIO.ts';
import type { TaskOOM as _containerd_events_TaskOOM, TaskOOM__Output as _containerd_events_TaskOOM__Output } from './containerd/events/TaskOOM.ts';
import type { TaskPaused as _containerd_events_TaskPaused, TaskPaused__Output as _containerd_events_TaskPaused__Output } from './containerd/events/TaskPaused.ts';
import type { TaskResumed as _containerd_events_TaskResumed, TaskResumed__Output as _containerd_events_TaskResumed__Output } from './containerd/events/TaskResumed.ts';
import type { TaskStart as _containerd_events_TaskStart, TaskStart__Output as _containerd_events_TaskStart__Output } from './containerd/events/TaskStart.ts';
import type { Mount as _containerd_types_Mount, Mount__Output as _containerd_types_Mount__Output } from './containerd/types/Mount.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  containerd: {
    events: {
      TaskCheckpointed: MessageTypeDefinition<_containerd_events_TaskCheckpointed, _containerd_events_TaskCheckpointed__Output>
      TaskCreate: MessageTypeDefinition<_containerd_events_TaskCreate, _containerd_events_TaskCreate__Output>
      TaskDelete: MessageTypeDefinition<_containerd_events_TaskDelete, _containerd_events_TaskDelete__Output>
      TaskExecAdded: MessageTypeDefinition<_containerd_events_TaskExecAdded, _containerd_events_TaskExecAdded__Output>
      TaskExecStarted: MessageTypeDefinition<_containerd_events_TaskExecStarted, _containerd_events_TaskExecStarted__Output>
      TaskExit: MessageTypeDefinition<_containerd_events_TaskExit, _containerd_events_TaskExit__Output>
      TaskIO: MessageTypeDefinition<_containerd_events_TaskIO, _containerd_events_TaskIO__Output>
      TaskOOM: MessageTypeDefinition<_containerd_events_TaskOOM, _containerd_events_TaskOOM__Output>
      TaskPaused: MessageTypeDefinition<_containerd_events_TaskPaused, _containerd_events_TaskPaused__Output>
      TaskResumed: MessageTypeDefinition<_containerd_events_TaskResumed, _containerd_events_TaskResumed__Output>
      TaskStart: MessageTypeDefinition<_containerd_events_TaskStart, _containerd_events_TaskStart__Output>
    }
    types: {
      Mount: MessageTypeDefinition<_containerd_types_Mount, _containerd_types_Mount__Output>
    }
  }
  google: {
    protobuf: {
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
    }
  }
}

