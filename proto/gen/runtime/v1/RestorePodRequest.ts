// Original file: proto/runtime/v1/api.proto

import type { PodSandboxConfig as _runtime_v1_PodSandboxConfig, PodSandboxConfig__Output as _runtime_v1_PodSandboxConfig__Output } from '../../runtime/v1/PodSandboxConfig.ts';
import type { ContainerConfig as _runtime_v1_ContainerConfig, ContainerConfig__Output as _runtime_v1_ContainerConfig__Output } from '../../runtime/v1/ContainerConfig.ts';

export interface RestorePodRequest {
  'checkpointPath'?: (string);
  'config'?: (_runtime_v1_PodSandboxConfig | null);
  'runtimeHandler'?: (string);
  'options'?: ({[key: string]: string});
  'containerConfigs'?: (_runtime_v1_ContainerConfig)[];
}

export interface RestorePodRequest__Output {
  'checkpointPath': (string);
  'config': (_runtime_v1_PodSandboxConfig__Output | null);
  'runtimeHandler': (string);
  'options': ({[key: string]: string});
  'containerConfigs': (_runtime_v1_ContainerConfig__Output)[];
}
