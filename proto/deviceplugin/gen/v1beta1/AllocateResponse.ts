// Original file: proto/deviceplugin/v1beta1/api.proto

import type { ContainerAllocateResponse as _v1beta1_ContainerAllocateResponse, ContainerAllocateResponse__Output as _v1beta1_ContainerAllocateResponse__Output } from '../v1beta1/ContainerAllocateResponse.ts';

export interface AllocateResponse {
  'containerResponses'?: (_v1beta1_ContainerAllocateResponse)[];
}

export interface AllocateResponse__Output {
  'containerResponses': (_v1beta1_ContainerAllocateResponse__Output)[];
}
