// Original file: proto/runtime/v1/api.proto

import type { Metric as _runtime_v1_Metric, Metric__Output as _runtime_v1_Metric__Output } from '../../runtime/v1/Metric.ts';
import type { ContainerMetrics as _runtime_v1_ContainerMetrics, ContainerMetrics__Output as _runtime_v1_ContainerMetrics__Output } from '../../runtime/v1/ContainerMetrics.ts';

export interface PodSandboxMetrics {
  'podSandboxId'?: (string);
  'metrics'?: (_runtime_v1_Metric)[];
  'containerMetrics'?: (_runtime_v1_ContainerMetrics)[];
}

export interface PodSandboxMetrics__Output {
  'podSandboxId': (string);
  'metrics': (_runtime_v1_Metric__Output)[];
  'containerMetrics': (_runtime_v1_ContainerMetrics__Output)[];
}
