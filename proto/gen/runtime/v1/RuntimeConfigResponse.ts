// Original file: proto/runtime/v1/api.proto

import type { LinuxRuntimeConfiguration as _runtime_v1_LinuxRuntimeConfiguration, LinuxRuntimeConfiguration__Output as _runtime_v1_LinuxRuntimeConfiguration__Output } from '../../runtime/v1/LinuxRuntimeConfiguration.ts';

export interface RuntimeConfigResponse {
  'linux'?: (_runtime_v1_LinuxRuntimeConfiguration | null);
}

export interface RuntimeConfigResponse__Output {
  'linux': (_runtime_v1_LinuxRuntimeConfiguration__Output | null);
}
