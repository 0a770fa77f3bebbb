// Original file: proto/runtime/v1/api.proto

import type { RestoredContainer as _runtime_v1_RestoredContainer, RestoredContainer__Output as _runtime_v1_RestoredContainer__Output } from '../../runtime/v1/RestoredContainer.ts';

export interface RestorePodResponse {
  'podSandboxId'?: (string);
  'restoredContainers'?: (_runtime_v1_RestoredContainer)[];
}

export interface RestorePodResponse__Output {
  'podSandboxId': (string);
  'restoredContainers': (_runtime_v1_RestoredContainer__Output)[];
}
