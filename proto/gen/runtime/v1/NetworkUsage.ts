// Original file: proto/runtime/v1/api.proto

import type { NetworkInterfaceUsage as _runtime_v1_NetworkInterfaceUsage, NetworkInterfaceUsage__Output as _runtime_v1_NetworkInterfaceUsage__Output } from '../../runtime/v1/NetworkInterfaceUsage.ts';
import type { Long } from '@grpc/proto-loader';

export interface NetworkUsage {
  'timestamp'?: (number | string | Long);
  'defaultInterface'?: (_runtime_v1_NetworkInterfaceUsage | null);
  'interfaces'?: (_runtime_v1_NetworkInterfaceUsage)[];
}

export interface NetworkUsage__Output {
  'timestamp': (number);
  'defaultInterface': (_runtime_v1_NetworkInterfaceUsage__Output | null);
  'interfaces': (_runtime_v1_NetworkInterfaceUsage__Output)[];
}
