/**
 * A pressure timeline from a running agent, for integration tests to print: one row per eviction-manager pass
 * (the signal's observed value, the conditions), condition transitions, GC runs and evictions, time ordered.
 * Sources: tRPC eviction.history, eviction.state (evictions) and events.recent (gc, EvictionThresholdMet).
 */
import { call } from './cluster-node.ts';

export interface TimelineRow {
  time: string;
  what: string;
  detail: string;
}

interface Tls {
  cert: string;
  key: string;
}

async function trpcGet<T>(port: number, tls: Tls, path: string, input?: unknown): Promise<T> {
  const q = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const r = await call(`https://127.0.0.1:${port}/trpc/${path}${q}`, tls);
  const body = JSON.parse(r.body) as { result?: { data: T }; error?: unknown };
  if (!body.result) throw new Error(`${path}: ${r.status} ${r.body.slice(0, 300)}`);
  return body.result.data;
}

const mib = (n: number | undefined) => (n === undefined ? '-' : `${(n / 1048576).toFixed(1)}Mi`);

/** Collects the timeline of `signal` (e.g. "memory.available", "imagefs.available") from the agent on `port`. */
export async function pressureTimeline(port: number, tls: Tls, signal: string, sinceMs = 0): Promise<TimelineRow[]> {
  const rows: TimelineRow[] = [];
  const history = await trpcGet<Array<{ time: string; conditions: string[]; values: Record<string, { available: number; capacity: number } | undefined> }>>(port, tls, 'eviction.history', {});
  let prev = '-';
  for (const s of history) {
    if (Date.parse(s.time) < sinceMs) continue;
    const v = s.values[signal];
    const conds = s.conditions.join(',') || '-';
    rows.push({ time: s.time, what: 'pass', detail: `${signal}=${mib(v?.available)} of ${mib(v?.capacity)} conditions=${conds}` });
    if (conds !== prev) rows.push({ time: s.time, what: 'condition', detail: `${prev} -> ${conds}` });
    prev = conds;
  }
  const state = await trpcGet<{ evictions: Array<{ time: string; pod: { namespace: string; name: string }; signal: string; qosClass: string; message: string }> } | null>(port, tls, 'eviction.state');
  for (const e of state?.evictions ?? []) {
    rows.push({ time: e.time, what: 'eviction', detail: `${e.pod.namespace}/${e.pod.name} (${e.qosClass}) ${e.signal}: ${e.message.trim()}` });
  }
  const events = await trpcGet<Array<{ type: string; time: string; kind?: string; trigger?: string; removed?: string[]; freedBytes?: number; reason?: string; message?: string }>>(
    port, tls, 'events.recent', { types: ['gc', 'k8sEvent'], limit: 1000 },
  );
  for (const e of events) {
    if (Date.parse(e.time) < sinceMs) continue;
    if (e.type === 'gc') rows.push({ time: e.time, what: `gc ${e.kind}`, detail: `trigger=${e.trigger} removed=[${(e.removed ?? []).join(' ')}] freed=${mib(e.freedBytes)}` });
    else if (e.reason && /^(EvictionThresholdMet|Evicted|ImageGCFailed|NodeHas\w*Pressure|NodeHasNo\w*Pressure|NodeHasSufficient\w*)$/.test(e.reason)) {
      rows.push({ time: e.time, what: `event ${e.reason}`, detail: e.message ?? '' });
    }
  }
  return rows.sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
}

/** The rows as a fixed-width table (relative seconds from the first row). */
export function formatTimeline(rows: TimelineRow[]): string {
  const t0 = rows.length ? Date.parse(rows[0]!.time) : 0;
  const lines = ['  t(s)  | time (UTC)               | what                       | detail', '--------+--------------------------+----------------------------+--------'];
  for (const r of rows) {
    const rel = ((Date.parse(r.time) - t0) / 1000).toFixed(1).padStart(6);
    lines.push(`${rel}  | ${r.time.padEnd(24)} | ${r.what.padEnd(26)} | ${r.detail}`);
  }
  return lines.join('\n');
}
