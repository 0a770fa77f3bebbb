// Original file: proto/podresources/v1/api.proto

import type { NUMANode as _v1_NUMANode, NUMANode__Output as _v1_NUMANode__Output } from '../v1/NUMANode.ts';

export interface TopologyInfo {
  'nodes'?: (_v1_NUMANode)[];
}

export interface TopologyInfo__Output {
  'nodes': (_v1_NUMANode__Output)[];
}
