// Original file: proto/podresources/v1/api.proto

import type { PodResources as _v1_PodResources, PodResources__Output as _v1_PodResources__Output } from '../v1/PodResources.ts';

export interface ListPodResourcesResponse {
  'podResources'?: (_v1_PodResources)[];
}

export interface ListPodResourcesResponse__Output {
  'podResources': (_v1_PodResources__Output)[];
}
