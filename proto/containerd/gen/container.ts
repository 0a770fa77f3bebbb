import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ContainerCreate as _containerd_events_ContainerCreate, ContainerCreate__Output as _containerd_events_ContainerCreate__Output } from './containerd/events/ContainerCreate.ts';
import type { ContainerDelete as _containerd_events_ContainerDelete, ContainerDelete__Output as _containerd_events_ContainerDelete__Output } from './containerd/events/ContainerDelete.ts';
import type { ContainerUpdate as _containerd_events_ContainerUpdate, ContainerUpdate__Output as _containerd_events_ContainerUpdate__Output } from './containerd/events/ContainerUpdate.ts';
import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from './google/protobuf/Any.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  containerd: {
    events: {
      ContainerCreate: MessageTypeDefinition<_containerd_events_ContainerCreate, _containerd_events_ContainerCreate__Output>
      ContainerDelete: MessageTypeDefinition<_containerd_events_ContainerDelete, _containerd_events_ContainerDelete__Output>
      ContainerUpdate: MessageTypeDefinition<_containerd_events_ContainerUpdate, _containerd_events_ContainerUpdate__Output>
    }
  }
  google: {
    protobuf: {
      Any: MessageTypeDefinition<_google_protobuf_Any, _google_protobuf_Any__Output>
    }
  }
}

