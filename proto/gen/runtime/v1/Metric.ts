// Original file: proto/runtime/v1/api.proto

import type { MetricType as _runtime_v1_MetricType, MetricType__Output as _runtime_v1_MetricType__Output } from '../../runtime/v1/MetricType.ts';
import type { UInt64Value as _runtime_v1_UInt64Value, UInt64Value__Output as _runtime_v1_UInt64Value__Output } from '../../runtime/v1/UInt64Value.ts';
import type { Long } from '@grpc/proto-loader';

export interface Metric {
  'name'?: (string);
  'timestamp'?: (number | string | Long);
  'metricType'?: (_runtime_v1_MetricType);
  'labelValues'?: (string)[];
  'value'?: (_runtime_v1_UInt64Value | null);
}

export interface Metric__Output {
  'name': (string);
  'timestamp': (number);
  'metricType': (_runtime_v1_MetricType__Output);
  'labelValues': (string)[];
  'value': (_runtime_v1_UInt64Value__Output | null);
}
