/**
 * The probe bus event (to be added to the NodeletEvent union in events/types.ts by the lead): published on
 * every change of a worker's run result and, when asked, on every run (rate-limited).
 */
import type { PodRef } from '../events/types.ts';
import type { ProbeResult, ProbeType } from './types.ts';

export interface ProbeBusEvent {
  type: 'probe';
  seq: number;
  time: string;
  pod: PodRef;
  container: string;
  probeType: ProbeType;
  /** This run's result. */
  result: ProbeResult;
  /** The previous run's result (absent on the first run of a container). */
  previous?: ProbeResult;
  /** Probe output or failure reason (exec output, HTTP failure text, connection error ...). */
  output?: string;
  latencyMs: number;
  /** The worker's cached result after threshold counting (what drives ready / kills). */
  effective?: ProbeResult;
}

export type ProbeBusEventInput = Omit<ProbeBusEvent, 'seq' | 'time'> & { time?: string };
