// bench/proc-usage: what a process costs, read from /proc: its CPU ticks and RSS (sample), where its RSS is
// (rssParts), its CPU by thread (threadTicks, threadShares), and a window of once-a-second samples of several
// processes (measure: RSS p50/p99, CPU over the window, its p99 and each minute's, the load and the CPU stolen).
// bench/footprint.ts measures the agent, the embedded runtime and the console with it.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { cpuJiffies, stealSinceStart } from './runtimes.ts';
import { percentile } from './stats.ts';

const TICK = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux.

interface Sample {
  cpuTicks: number;
  rssKiB: number;
}

/** utime+stime (ticks) and VmRSS (KiB) of `pid`; undefined once it is gone. */
export function sample(pid: number): Sample | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuTicks: Number(f[11]) + Number(f[12]), rssKiB: Number(rss?.[1] ?? NaN) };
  } catch {
    return undefined;
  }
}

/** Where a process's RSS is (/proc/<pid>/status): anonymous memory (heap, native) vs mapped files (code) vs shared. */
export function rssParts(pid: number): string {
  try {
    const st = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(st)?.[1] ?? NaN);
    return `RSS ${(kib('VmRSS') / 1024).toFixed(0)} MiB = anon ${(kib('RssAnon') / 1024).toFixed(0)} + file ${(kib('RssFile') / 1024).toFixed(0)} + shmem ${(kib('RssShmem') / 1024).toFixed(0)}`;
  } catch {
    return 'gone';
  }
}

export interface Usage {
  /** CPU seconds over wall seconds for the whole window, % of one core. */
  cpuPct: number;
  cpuP99: number;
  /** CPU % of each whole minute of the window (a long window's spread: this machine's minutes differ). */
  cpuMinutes: number[];
  rssP50: number;
  rssP99: number;
}

/** CPU ticks per thread of `pid` (/proc/<pid>/task/<tid>/stat: utime + stime), the main thread as `main`. */
export function threadTicks(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const st = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Node leaves its threads unnamed ("node"): the main thread is the one whose id is the pid; the others are
      // libuv's pool and V8's workers (GC, compiler).
      const comm = tid === String(pid) ? 'main' : `${st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'))} ${tid}`;
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      out.set(comm, (out.get(comm) ?? 0) + Number(f[11]) + Number(f[12]));
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** % of one core per thread name between two threadTicks readings `wallS` apart. */
export function threadShares(a: Map<string, number>, b: Map<string, number>, wallS: number): string {
  return [...b]
    .map(([k, v]) => [k, ((v - (a.get(k) ?? 0)) / TICK / wallS) * 100] as const)
    .filter(([, pct]) => pct > 0)
    .sort((x, y) => y[1] - x[1])
    .map(([k, pct]) => `${k} ${pct.toFixed(2)} %`)
    .join(', ');
}

/** Samples every process once a second for `windowS` s. */
export async function measure(procs: Record<string, number>, windowS: number): Promise<{ usage: Record<string, Usage>; load: number; stolen: number | undefined }> {
  const jiffies = cpuJiffies();
  const cpu: Record<string, number[]> = {};
  const rss: Record<string, number[]> = {};
  const first = Object.fromEntries(Object.entries(procs).map(([k, pid]) => [k, sample(pid)]));
  let prev = { ...first };
  const t0 = performance.now();
  let t = t0;
  for (let i = 0; i < windowS; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = performance.now();
    for (const [name, pid] of Object.entries(procs)) {
      const s = sample(pid);
      const p = prev[name];
      if (s && p) {
        (cpu[name] ??= []).push((((s.cpuTicks - p.cpuTicks) / TICK) * 100000) / (now - t));
        (rss[name] ??= []).push(s.rssKiB / 1024);
      }
      prev[name] = s;
    }
    t = now;
  }
  const usage: Record<string, Usage> = {};
  for (const name of Object.keys(procs)) {
    const a = first[name];
    const b = prev[name];
    const total = a && b ? ((b.cpuTicks - a.cpuTicks) / TICK / ((t - t0) / 1000)) * 100 : NaN;
    const perSecond = cpu[name] ?? [];
    const cpuMinutes = Array.from({ length: Math.floor(perSecond.length / 60) }, (_, k) => perSecond.slice(k * 60, k * 60 + 60).reduce((x, y) => x + y, 0) / 60);
    usage[name] = { cpuPct: total, cpuP99: percentile(perSecond, 99), cpuMinutes, rssP50: percentile(rss[name] ?? [], 50), rssP99: percentile(rss[name] ?? [], 99) };
  }
  return { usage, load: loadavg()[0] ?? 0, stolen: stealSinceStart(jiffies) };
}
