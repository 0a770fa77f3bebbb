// Original file: proto/runtime/v1/api.proto

import type { HugepageLimit as _runtime_v1_HugepageLimit, HugepageLimit__Output as _runtime_v1_HugepageLimit__Output } from '../../runtime/v1/HugepageLimit.ts';
import type { Long } from '@grpc/proto-loader';

export interface LinuxContainerResources {
  'cpuPeriod'?: (number | string | Long);
  'cpuQuota'?: (number | string | Long);
  'cpuShares'?: (number | string | Long);
  'memoryLimitInBytes'?: (number | string | Long);
  'oomScoreAdj'?: (number | string | Long);
  'cpusetCpus'?: (string);
  'cpusetMems'?: (string);
  'hugepageLimits'?: (_runtime_v1_HugepageLimit)[];
  'unified'?: ({[key: string]: string});
  'memorySwapLimitInBytes'?: (number | string | Long);
}

export interface LinuxContainerResources__Output {
  'cpuPeriod': (number);
  'cpuQuota': (number);
  'cpuShares': (number);
  'memoryLimitInBytes': (number);
  'oomScoreAdj': (number);
  'cpusetCpus': (string);
  'cpusetMems': (string);
  'hugepageLimits': (_runtime_v1_HugepageLimit__Output)[];
  'unified': ({[key: string]: string});
  'memorySwapLimitInBytes': (number);
}
