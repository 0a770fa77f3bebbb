/** @nodelet/core/prober: probe result types. */
export type { ProbeResult, ProbeType } from './types.ts';
