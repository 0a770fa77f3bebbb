// Original file: proto/podresources/v1/api.proto

import type { PodResources as _v1_PodResources, PodResources__Output as _v1_PodResources__Output } from '../v1/PodResources.ts';

export interface GetPodResourcesResponse {
  'podResources'?: (_v1_PodResources | null);
}

export interface GetPodResourcesResponse__Output {
  'podResources': (_v1_PodResources__Output | null);
}
