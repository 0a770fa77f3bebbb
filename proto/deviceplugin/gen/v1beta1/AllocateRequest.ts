// Original file: proto/deviceplugin/v1beta1/api.proto

import type { ContainerAllocateRequest as _v1beta1_ContainerAllocateRequest, ContainerAllocateRequest__Output as _v1beta1_ContainerAllocateRequest__Output } from '../v1beta1/ContainerAllocateRequest.ts';

export interface AllocateRequest {
  'containerRequests'?: (_v1beta1_ContainerAllocateRequest)[];
}

export interface AllocateRequest__Output {
  'containerRequests': (_v1beta1_ContainerAllocateRequest__Output)[];
}
