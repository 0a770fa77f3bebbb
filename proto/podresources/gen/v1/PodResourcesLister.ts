// Original file: proto/podresources/v1/api.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AllocatableResourcesRequest as _v1_AllocatableResourcesRequest, AllocatableResourcesRequest__Output as _v1_AllocatableResourcesRequest__Output } from '../v1/AllocatableResourcesRequest.ts';
import type { AllocatableResourcesResponse as _v1_AllocatableResourcesResponse, AllocatableResourcesResponse__Output as _v1_AllocatableResourcesResponse__Output } from '../v1/AllocatableResourcesResponse.ts';
import type { GetPodResourcesRequest as _v1_GetPodResourcesRequest, GetPodResourcesRequest__Output as _v1_GetPodResourcesRequest__Output } from '../v1/GetPodResourcesRequest.ts';
import type { GetPodResourcesResponse as _v1_GetPodResourcesResponse, GetPodResourcesResponse__Output as _v1_GetPodResourcesResponse__Output } from '../v1/GetPodResourcesResponse.ts';
import type { ListPodResourcesRequest as _v1_ListPodResourcesRequest, ListPodResourcesRequest__Output as _v1_ListPodResourcesRequest__Output } from '../v1/ListPodResourcesRequest.ts';
import type { ListPodResourcesResponse as _v1_ListPodResourcesResponse, ListPodResourcesResponse__Output as _v1_ListPodResourcesResponse__Output } from '../v1/ListPodResourcesResponse.ts';

export interface PodResourcesListerClient extends grpc.Client {
  Get(argument: _v1_GetPodResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_GetPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _v1_GetPodResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v1_GetPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _v1_GetPodResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_GetPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _v1_GetPodResourcesRequest, callback: grpc.requestCallback<_v1_GetPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _v1_GetPodResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_GetPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _v1_GetPodResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v1_GetPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _v1_GetPodResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_GetPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _v1_GetPodResourcesRequest, callback: grpc.requestCallback<_v1_GetPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  
  GetAllocatableResources(argument: _v1_AllocatableResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_AllocatableResourcesResponse__Output>): grpc.ClientUnaryCall;
  GetAllocatableResources(argument: _v1_AllocatableResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v1_AllocatableResourcesResponse__Output>): grpc.ClientUnaryCall;
  GetAllocatableResources(argument: _v1_AllocatableResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_AllocatableResourcesResponse__Output>): grpc.ClientUnaryCall;
  GetAllocatableResources(argument: _v1_AllocatableResourcesRequest, callback: grpc.requestCallback<_v1_AllocatableResourcesResponse__Output>): grpc.ClientUnaryCall;
  getAllocatableResources(argument: _v1_AllocatableResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_AllocatableResourcesResponse__Output>): grpc.ClientUnaryCall;
  getAllocatableResources(argument: _v1_AllocatableResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v1_AllocatableResourcesResponse__Output>): grpc.ClientUnaryCall;
  getAllocatableResources(argument: _v1_AllocatableResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_AllocatableResourcesResponse__Output>): grpc.ClientUnaryCall;
  getAllocatableResources(argument: _v1_AllocatableResourcesRequest, callback: grpc.requestCallback<_v1_AllocatableResourcesResponse__Output>): grpc.ClientUnaryCall;
  
  List(argument: _v1_ListPodResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_ListPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  List(argument: _v1_ListPodResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v1_ListPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  List(argument: _v1_ListPodResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_ListPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  List(argument: _v1_ListPodResourcesRequest, callback: grpc.requestCallback<_v1_ListPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  list(argument: _v1_ListPodResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_ListPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  list(argument: _v1_ListPodResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v1_ListPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  list(argument: _v1_ListPodResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v1_ListPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  list(argument: _v1_ListPodResourcesRequest, callback: grpc.requestCallback<_v1_ListPodResourcesResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface PodResourcesListerHandlers extends grpc.UntypedServiceImplementation {
  Get: grpc.handleUnaryCall<_v1_GetPodResourcesRequest__Output, _v1_GetPodResourcesResponse>;
  
  GetAllocatableResources: grpc.handleUnaryCall<_v1_AllocatableResourcesRequest__Output, _v1_AllocatableResourcesResponse>;
  
  List: grpc.handleUnaryCall<_v1_ListPodResourcesRequest__Output, _v1_ListPodResourcesResponse>;
  
}

export interface PodResourcesListerDefinition extends grpc.ServiceDefinition {
  Get: MethodDefinition<_v1_GetPodResourcesRequest, _v1_GetPodResourcesResponse, _v1_GetPodResourcesRequest__Output, _v1_GetPodResourcesResponse__Output>
  GetAllocatableResources: MethodDefinition<_v1_AllocatableResourcesRequest, _v1_AllocatableResourcesResponse, _v1_AllocatableResourcesRequest__Output, _v1_AllocatableResourcesResponse__Output>
  List: MethodDefinition<_v1_ListPodResourcesRequest, _v1_ListPodResourcesResponse, _v1_ListPodResourcesRequest__Output, _v1_ListPodResourcesResponse__Output>
}
