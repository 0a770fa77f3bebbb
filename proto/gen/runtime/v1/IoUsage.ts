// Original file: proto/runtime/v1/api.proto

import type { PsiStats as _runtime_v1_PsiStats, PsiStats__Output as _runtime_v1_PsiStats__Output } from '../../runtime/v1/PsiStats.ts';
import type { Long } from '@grpc/proto-loader';

export interface IoUsage {
  'timestamp'?: (number | string | Long);
  'psi'?: (_runtime_v1_PsiStats | null);
}

export interface IoUsage__Output {
  'timestamp': (number);
  'psi': (_runtime_v1_PsiStats__Output | null);
}
