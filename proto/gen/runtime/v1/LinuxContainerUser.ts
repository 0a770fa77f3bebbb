// Original file: proto/runtime/v1/api.proto

import type { Long } from '@grpc/proto-loader';

export interface LinuxContainerUser {
  'uid'?: (number | string | Long);
  'gid'?: (number | string | Long);
  'supplementalGroups'?: (number | string | Long)[];
}

export interface LinuxContainerUser__Output {
  'uid': (number);
  'gid': (number);
  'supplementalGroups': (number)[];
}
