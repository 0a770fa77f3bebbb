// Original file: proto/runtime/v1/api.proto

import type { LinuxContainerUser as _runtime_v1_LinuxContainerUser, LinuxContainerUser__Output as _runtime_v1_LinuxContainerUser__Output } from '../../runtime/v1/LinuxContainerUser.ts';

export interface ContainerUser {
  'linux'?: (_runtime_v1_LinuxContainerUser | null);
}

export interface ContainerUser__Output {
  'linux': (_runtime_v1_LinuxContainerUser__Output | null);
}
