/** The kubelet's healthz checks: ping, log, syncloop, pleg, runtime. */
import type { PlegHealth } from '../pleg/types.ts';
import type { HealthReport } from './types.ts';

export interface HealthInputs {
  now: number;
  /** Clock.now() of the last sync loop iteration; undefined when the loop is not running. */
  syncLoopLastIteration: number | undefined;
  syncFrequencyMs: number;
  pleg: PlegHealth;
  runtimeReady: boolean;
  runtimeMessage: string;
}

/** The sync loop is stalled when no iteration started for max(2 × syncFrequency, 5 min). */
export function syncLoopThresholdMs(syncFrequencyMs: number): number {
  return Math.max(2 * syncFrequencyMs, 5 * 60_000);
}

export function healthReport(i: HealthInputs): HealthReport {
  const last = i.syncLoopLastIteration;
  const syncOk = last !== undefined && i.now - last <= syncLoopThresholdMs(i.syncFrequencyMs);
  const checks = [
    { name: 'ping', ok: true },
    { name: 'log', ok: true },
    {
      name: 'syncloop',
      ok: syncOk,
      ...(syncOk ? {} : { message: last === undefined ? 'sync loop is not running' : 'sync Loop took longer than expected' }),
    },
    { name: 'pleg', ok: i.pleg.ok, ...(i.pleg.ok ? {} : { message: `PLEG is not healthy: ${i.pleg.message ?? ''}` }) },
    { name: 'runtime', ok: i.runtimeReady, ...(i.runtimeReady ? {} : { message: i.runtimeMessage }) },
  ];
  return { ok: checks.every((c) => c.ok), checks };
}
