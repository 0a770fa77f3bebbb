// Original file: proto/runtime/v1/api.proto

import type { PodSandboxFilter as _runtime_v1_PodSandboxFilter, PodSandboxFilter__Output as _runtime_v1_PodSandboxFilter__Output } from '../../runtime/v1/PodSandboxFilter.ts';

export interface StreamPodSandboxesRequest {
  'filter'?: (_runtime_v1_PodSandboxFilter | null);
}

export interface StreamPodSandboxesRequest__Output {
  'filter': (_runtime_v1_PodSandboxFilter__Output | null);
}
