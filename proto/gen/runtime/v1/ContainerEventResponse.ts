// Original file: proto/runtime/v1/api.proto

import type { ContainerEventType as _runtime_v1_ContainerEventType, ContainerEventType__Output as _runtime_v1_ContainerEventType__Output } from '../../runtime/v1/ContainerEventType.ts';
import type { PodSandboxStatus as _runtime_v1_PodSandboxStatus, PodSandboxStatus__Output as _runtime_v1_PodSandboxStatus__Output } from '../../runtime/v1/PodSandboxStatus.ts';
import type { ContainerStatus as _runtime_v1_ContainerStatus, ContainerStatus__Output as _runtime_v1_ContainerStatus__Output } from '../../runtime/v1/ContainerStatus.ts';
import type { Long } from '@grpc/proto-loader';

export interface ContainerEventResponse {
  'containerId'?: (string);
  'containerEventType'?: (_runtime_v1_ContainerEventType);
  'createdAt'?: (number | string | Long);
  'podSandboxStatus'?: (_runtime_v1_PodSandboxStatus | null);
  'containersStatuses'?: (_runtime_v1_ContainerStatus)[];
}

export interface ContainerEventResponse__Output {
  'containerId': (string);
  'containerEventType': (_runtime_v1_ContainerEventType__Output);
  'createdAt': (number);
  'podSandboxStatus': (_runtime_v1_PodSandboxStatus__Output | null);
  'containersStatuses': (_runtime_v1_ContainerStatus__Output)[];
}
