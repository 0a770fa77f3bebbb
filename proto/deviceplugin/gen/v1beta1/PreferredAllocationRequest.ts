// Original file: proto/deviceplugin/v1beta1/api.proto

import type { ContainerPreferredAllocationRequest as _v1beta1_ContainerPreferredAllocationRequest, ContainerPreferredAllocationRequest__Output as _v1beta1_ContainerPreferredAllocationRequest__Output } from '../v1beta1/ContainerPreferredAllocationRequest.ts';

export interface PreferredAllocationRequest {
  'containerRequests'?: (_v1beta1_ContainerPreferredAllocationRequest)[];
}

export interface PreferredAllocationRequest__Output {
  'containerRequests': (_v1beta1_ContainerPreferredAllocationRequest__Output)[];
}
