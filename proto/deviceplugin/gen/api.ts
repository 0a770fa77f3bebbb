import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AllocateRequest as _v1beta1_AllocateRequest, AllocateRequest__Output as _v1beta1_AllocateRequest__Output } from './v1beta1/AllocateRequest.ts';
import type { AllocateResponse as _v1beta1_AllocateResponse, AllocateResponse__Output as _v1beta1_AllocateResponse__Output } from './v1beta1/AllocateResponse.ts';
import type { CDIDevice as _v1beta1_CDIDevice, CDIDevice__Output as _v1beta1_CDIDevice__Output } from './v1beta1/CDIDevice.ts';
import type { ContainerAllocateRequest as _v1beta1_ContainerAllocateRequest, ContainerAllocateRequest__Output as _v1beta1_ContainerAllocateRequest__Output } from './v1beta1/ContainerAllocateRequest.ts';
import type { ContainerAllocateResponse as _v1beta1_ContainerAllocateResponse, ContainerAllocateResponse__Output as _v1beta1_ContainerAllocateResponse__Output } from './v1beta1/ContainerAllocateResponse.ts';
import type { ContainerPreferredAllocationRequest as _v1beta1_ContainerPreferredAllocationRequest, ContainerPreferredAllocationRequest__Output as _v1beta1_ContainerPreferredAllocationRequest__Output } from './v1beta1/ContainerPreferredAllocationRequest.ts';
import type { ContainerPreferredAllocationResponse as _v1beta1_ContainerPreferredAllocationResponse, ContainerPreferredAllocationResponse__Output as _v1beta1_ContainerPreferredAllocationResponse__Output } from './v1beta1/ContainerPreferredAllocationResponse.ts';
import type { Device as _v1beta1_Device, Device__Output as _v1beta1_Device__Output } from './v1beta1/Device.ts';
import type { DevicePluginClient as _v1beta1_DevicePluginClient, DevicePluginDefinition as _v1beta1_DevicePluginDefinition } from './v1beta1/DevicePlugin.ts';
import type { DevicePluginOptions as _v1beta1_DevicePluginOptions, DevicePluginOptions__Output as _v1beta1_DevicePluginOptions__Output } from './v1beta1/DevicePluginOptions.ts';
import type { DeviceSpec as _v1beta1_DeviceSpec, DeviceSpec__Output as _v1beta1_DeviceSpec__Output } from './v1beta1/DeviceSpec.ts';
import type { Empty as _v1beta1_Empty, Empty__Output as _v1beta1_Empty__Output } from './v1beta1/Empty.ts';
import type { ListAndWatchResponse as _v1beta1_ListAndWatchResponse, ListAndWatchResponse__Output as _v1beta1_ListAndWatchResponse__Output } from './v1beta1/ListAndWatchResponse.ts';
import type { Mount as _v1beta1_Mount, Mount__Output as _v1beta1_Mount__Output } from './v1beta1/Mount.ts';
import type { NUMANode as _v1beta1_NUMANode, NUMANode__Output as _v1beta1_NUMANode__Output } from './v1beta1/NUMANode.ts';
import type { PreStartContainerRequest as _v1beta1_PreStartContainerRequest, PreStartContainerRequest__Output as _v1beta1_PreStartContainerRequest__Output } from './v1beta1/PreStartContainerRequest.ts';
import type { PreStartContainerResponse as _v1beta1_PreStartContainerResponse, PreStartContainerResponse__Output as _v1beta1_PreStartContainerResponse__Output } from './v1beta1/PreStartContainerResponse.ts';
import type { PreferredAllocationRequest as _v1beta1_PreferredAllocationRequest, PreferredAllocationRequest__Output as _v1beta1_PreferredAllocationRequest__Output } from './v1beta1/PreferredAllocationRequest.ts';
import type { PreferredAllocationResponse as _v1beta1_PreferredAllocationResponse, PreferredAllocationResponse__Output as _v1beta1_PreferredAllocationResponse__Output } from './v1beta1/PreferredAllocationResponse.ts';
import type { RegisterRequest as _v1beta1_RegisterRequest, RegisterRequest__Output as _v1beta1_RegisterRequest__Output } from './v1beta1/RegisterRequest.ts';
import type { RegistrationClient as _v1beta1_RegistrationClient, RegistrationDefinition as _v1beta1_RegistrationDefinition } from './v1beta1/Registration.ts';
import type { TopologyInfo as _v1beta1_TopologyInfo, TopologyInfo__Output as _v1beta1_TopologyInfo__Output } from './v1beta1/TopologyInfo.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  v1beta1: {
    AllocateRequest: MessageTypeDefinition<_v1beta1_AllocateRequest, _v1beta1_AllocateRequest__Output>
    AllocateResponse: MessageTypeDefinition<_v1beta1_AllocateResponse, _v1beta1_AllocateResponse__Output>
    CDIDevice: MessageTypeDefinition<_v1beta1_CDIDevice, _v1beta1_CDIDevice__Output>
    ContainerAllocateRequest: MessageTypeDefinition<_v1beta1_ContainerAllocateRequest, _v1beta1_ContainerAllocateRequest__Output>
    ContainerAllocateResponse: MessageTypeDefinition<_v1beta1_ContainerAllocateResponse, _v1beta1_ContainerAllocateResponse__Output>
    ContainerPreferredAllocationRequest: MessageTypeDefinition<_v1beta1_ContainerPreferredAllocationRequest, _v1beta1_ContainerPreferredAllocationRequest__Output>
    ContainerPreferredAllocationResponse: MessageTypeDefinition<_v1beta1_ContainerPreferredAllocationResponse, _v1beta1_ContainerPreferredAllocationResponse__Output>
    Device: MessageTypeDefinition<_v1beta1_Device, _v1beta1_Device__Output>
    DevicePlugin: SubtypeConstructor<typeof grpc.Client, _v1beta1_DevicePluginClient> & { service: _v1beta1_DevicePluginDefinition }
    DevicePluginOptions: MessageTypeDefinition<_v1beta1_DevicePluginOptions, _v1beta1_DevicePluginOptions__Output>
    DeviceSpec: MessageTypeDefinition<_v1beta1_DeviceSpec, _v1beta1_DeviceSpec__Output>
    Empty: MessageTypeDefinition<_v1beta1_Empty, _v1beta1_Empty__Output>
    ListAndWatchResponse: MessageTypeDefinition<_v1beta1_ListAndWatchResponse, _v1beta1_ListAndWatchResponse__Output>
    Mount: MessageTypeDefinition<_v1beta1_Mount, _v1beta1_Mount__Output>
    NUMANode: MessageTypeDefinition<_v1beta1_NUMANode, _v1beta1_NUMANode__Output>
    PreStartContainerRequest: MessageTypeDefinition<_v1beta1_PreStartContainerRequest, _v1beta1_PreStartContainerRequest__Output>
    PreStartContainerResponse: MessageTypeDefinition<_v1beta1_PreStartContainerResponse, _v1beta1_PreStartContainerResponse__Output>
    PreferredAllocationRequest: MessageTypeDefinition<_v1beta1_PreferredAllocationRequest, _v1beta1_PreferredAllocationRequest__Output>
    PreferredAllocationResponse: MessageTypeDefinition<_v1beta1_PreferredAllocationResponse, _v1beta1_PreferredAllocationResponse__Output>
    RegisterRequest: MessageTypeDefinition<_v1beta1_RegisterRequest, _v1beta1_RegisterRequest__Output>
    Registration: SubtypeConstructor<typeof grpc.Client, _v1beta1_RegistrationClient> & { service: _v1beta1_RegistrationDefinition }
    TopologyInfo: MessageTypeDefinition<_v1beta1_TopologyInfo, _v1beta1_TopologyInfo__Output>
  }
}

