// Original file: proto/runtime/v1/api.proto

export const MetricType = {
  COUNTER: 'COUNTER',
  GAUGE: 'GAUGE',
} as const;

export type MetricType =
  | 'COUNTER'
  | 0
  | 'GAUGE'
  | 1

export type MetricType__Output = typeof MetricType[keyof typeof MetricType]
