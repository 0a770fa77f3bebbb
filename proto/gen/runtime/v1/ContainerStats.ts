// Original file: proto/runtime/v1/api.proto

import type { ContainerAttributes as _runtime_v1_ContainerAttributes, ContainerAttributes__Output as _runtime_v1_ContainerAttributes__Output } from '../../runtime/v1/ContainerAttributes.ts';
import type { CpuUsage as _runtime_v1_CpuUsage, CpuUsage__Output as _runtime_v1_CpuUsage__Output } from '../../runtime/v1/CpuUsage.ts';
import type { MemoryUsage as _runtime_v1_MemoryUsage, MemoryUsage__Output as _runtime_v1_MemoryUsage__Output } from '../../runtime/v1/MemoryUsage.ts';
import type { FilesystemUsage as _runtime_v1_FilesystemUsage, FilesystemUsage__Output as _runtime_v1_FilesystemUsage__Output } from '../../runtime/v1/FilesystemUsage.ts';
import type { SwapUsage as _runtime_v1_SwapUsage, SwapUsage__Output as _runtime_v1_SwapUsage__Output } from '../../runtime/v1/SwapUsage.ts';
import type { IoUsage as _runtime_v1_IoUsage, IoUsage__Output as _runtime_v1_IoUsage__Output } from '../../runtime/v1/IoUsage.ts';

export interface ContainerStats {
  'attributes'?: (_runtime_v1_ContainerAttributes | null);
  'cpu'?: (_runtime_v1_CpuUsage | null);
  'memory'?: (_runtime_v1_MemoryUsage | null);
  'writableLayer'?: (_runtime_v1_FilesystemUsage | null);
  'swap'?: (_runtime_v1_SwapUsage | null);
  'io'?: (_runtime_v1_IoUsage | null);
}

export interface ContainerStats__Output {
  'attributes': (_runtime_v1_ContainerAttributes__Output | null);
  'cpu': (_runtime_v1_CpuUsage__Output | null);
  'memory': (_runtime_v1_MemoryUsage__Output | null);
  'writableLayer': (_runtime_v1_FilesystemUsage__Output | null);
  'swap': (_runtime_v1_SwapUsage__Output | null);
  'io': (_runtime_v1_IoUsage__Output | null);
}
