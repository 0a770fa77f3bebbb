/**
 * Probe runs (and repeated back-offs) folded into spans: one row per run of equal results of a (pod, container, probe type), with the
 * first and last time and the count, not a row per success. A different result (or effective result) closes the
 * span and opens the next one; the open span's row grows in place (same id) until then.
 */
import type { ProbeBusEvent } from '@nodelet/core/events';
import type { PendingRow } from './store.ts';
import type { RecorderEntryInput } from './types.ts';

export type ProbeRunInput = Omit<ProbeBusEvent, 'type' | 'seq'>;

interface OpenSpan {
  row: PendingRow;
  result: string;
  effective: string | undefined;
}

export class ProbeSpans {
  private readonly open = new Map<string, OpenSpan>();

  /** The row this run lands in: a new span's row, or the open span's row grown by one run. */
  add(run: ProbeRunInput, timeMs: number): PendingRow {
    const key = `${run.pod.uid}\u0000${run.container}\u0000${run.probeType}`;
    const span = this.open.get(key);
    const details = { probeType: run.probeType, latencyMs: run.latencyMs, ...(run.effective ? { effective: run.effective } : {}) };
    if (span && span.result === run.result && span.effective === run.effective) {
      span.row.count++;
      span.row.lastMs = timeMs;
      span.row.entry = { ...span.row.entry, ...(run.output ? { message: run.output.slice(0, 1024) } : {}), details };
      return span.row;
    }
    const row: PendingRow = {
      timeMs,
      lastMs: timeMs,
      count: 1,
      entry: {
        time: new Date(timeMs).toISOString(),
        kind: 'probe',
        podUID: run.pod.uid,
        namespace: run.pod.namespace,
        name: run.pod.name,
        container: run.container,
        reason: run.result,
        ...(run.output ? { message: run.output.slice(0, 1024) } : {}),
        details,
      },
    };
    this.open.set(key, { row, result: run.result, effective: run.effective });
    return row;
  }

  /** Forgets a removed pod's open spans (a new pod with the same names starts new spans). */
  forgetPod(uid: string): void {
    for (const k of this.open.keys()) if (k.startsWith(`${uid}\u0000`)) this.open.delete(k);
  }

  size(): number {
    return this.open.size;
  }
}

/**
 * Back-off rows folded the same way: while a container waits out its CrashLoopBackOff, every sync attempt reports
 * the same back-off (same delay); they make one row (count = attempts, first and last time). The container's next
 * start closes the span, so each back-off period keeps its own row.
 */
export class BackOffSpans {
  private readonly open = new Map<string, { row: PendingRow; delay: unknown }>();

  add(entry: RecorderEntryInput, timeMs: number): PendingRow {
    const key = `${entry.podUID ?? ''}\u0000${entry.container ?? ''}`;
    const delay = entry.details?.delayMs;
    const span = this.open.get(key);
    if (span && span.delay === delay) {
      span.row.count++;
      span.row.lastMs = timeMs;
      return span.row;
    }
    const row: PendingRow = { entry, timeMs, lastMs: timeMs, count: 1 };
    this.open.set(key, { row, delay });
    return row;
  }

  /** The container started again: its next back-off is a new row. */
  close(podUID: string | undefined, container: string | undefined): void {
    this.open.delete(`${podUID ?? ''}\u0000${container ?? ''}`);
  }

  forgetPod(uid: string): void {
    for (const k of this.open.keys()) if (k.startsWith(`${uid}\u0000`)) this.open.delete(k);
  }
}
