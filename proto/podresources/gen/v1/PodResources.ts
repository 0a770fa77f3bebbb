// Original file: proto/podresources/v1/api.proto

import type { ContainerResources as _v1_ContainerResources, ContainerResources__Output as _v1_ContainerResources__Output } from '../v1/ContainerResources.ts';

export interface PodResources {
  'name'?: (string);
  'namespace'?: (string);
  'containers'?: (_v1_ContainerResources)[];
}

export interface PodResources__Output {
  'name': (string);
  'namespace': (string);
  'containers': (_v1_ContainerResources__Output)[];
}
