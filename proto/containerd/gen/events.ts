import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Envelope as _containerd_services_events_v1_Envelope, Envelope__Output as _containerd_services_events_v1_Envelope__Output } from './containerd/services/events/v1/Envelope.ts';
import type { EventsClient as _containerd_services_events_v1_EventsClient, EventsDefinition as _containerd_services_events_v1_EventsDefinition } from './containerd/services/events/v1/Events.ts';
import type { ForwardRequest as _containerd_services_events_v1_ForwardRequest, ForwardRequest__Output as _containerd_services_events_v1_ForwardRequest__Output } from './containerd/services/events/v1/ForwardRequest.ts';
import type { PublishRequest as _containerd_services_events_v1_PublishRequest, PublishRequest__Output as _containerd_services_events_v1_PublishRequest__Output } from './containerd/services/events/v1/PublishRequest.ts';
import type { SubscribeRequest as _containerd_services_events_v1_SubscribeRequest, SubscribeRequest__Output as _containerd_services_events_v1_SubscribeRequest__Output } from './containerd/services/events/v1/SubscribeRequest.ts';
import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from './google/protobuf/Any.ts';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from './google/protobuf/Empty.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  containerd: {
    services: {
      events: {
        v1: {
          Envelope: MessageTypeDefinition<_containerd_services_events_v1_Envelope, _containerd_services_events_v1_Envelope__Output>
          Events: SubtypeConstructor<typeof grpc.Client, _containerd_services_events_v1_EventsClient> & { service: _containerd_services_events_v1_EventsDefinition }
          ForwardRequest: MessageTypeDefinition<_containerd_services_events_v1_ForwardRequest, _containerd_services_events_v1_ForwardRequest__Output>
          PublishRequest: MessageTypeDefinition<_containerd_services_events_v1_PublishRequest, _containerd_services_events_v1_PublishRequest__Output>
          SubscribeRequest: MessageTypeDefinition<_containerd_services_events_v1_SubscribeRequest, _containerd_services_events_v1_SubscribeRequest__Output>
        }
      }
    }
  }
  google: {
    protobuf: {
      Any: MessageTypeDefinition<_google_protobuf_Any, _google_protobuf_Any__Output>
      Empty: MessageTypeDefinition<_google_protobuf_Empty, _google_protobuf_Empty__Output>
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
    }
  }
}

