// Original file: proto/runtime/v1/api.proto

import type { PsiData as _runtime_v1_PsiData, PsiData__Output as _runtime_v1_PsiData__Output } from '../../runtime/v1/PsiData.ts';

export interface PsiStats {
  'Full'?: (_runtime_v1_PsiData | null);
  'Some'?: (_runtime_v1_PsiData | null);
}

export interface PsiStats__Output {
  'Full': (_runtime_v1_PsiData__Output | null);
  'Some': (_runtime_v1_PsiData__Output | null);
}
