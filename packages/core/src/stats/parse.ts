/** Parsers for cgroup and /proc text files (flat "key value" files, single numbers, line counts). */

/** "key value" lines (memory.stat, cpu.stat, memory.events, cpuacct.stat) → numbers. */
export function parseFlatKeyed(text: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (!text) return out;
  // A scan by character codes: only the key and the value of each line are cut out (memory.stat has ≈ 36 lines and
  // is read for every container each housekeeping; a regex match or a split allocates three to four strings a line).
  const n = text.length;
  const blank = (i: number) => {
    const c = text.charCodeAt(i);
    return c === 32 || c === 9 || c === 13;
  };
  for (let i = 0; i < n; ) {
    let end = text.indexOf('\n', i);
    if (end < 0) end = n;
    let a = i;
    while (a < end && blank(a)) a++;
    let b = a;
    while (b < end && !blank(b)) b++;
    let c = b;
    while (c < end && blank(c)) c++;
    let d = c;
    while (d < end && !blank(d)) d++;
    if (b > a && d > c) {
      const v = Number(text.slice(c, d));
      if (Number.isFinite(v)) out[text.slice(a, b)] = v;
    }
    i = end + 1;
  }
  return out;
}

/** A single integer file; 'max' → -1; absent or garbage → undefined. */
/** A whitespace-separated list of integers (cpuacct.usage_percpu); undefined when missing or malformed. */
export function parseList(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.trim().split(/\s+/).filter((p) => p !== '');
  if (parts.length === 0 || !parts.every((p) => /^\d+$/.test(p))) return undefined;
  return parts.map(Number);
}

export function parseSingle(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (t === 'max') return -1;
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** Non-empty lines (cgroup.procs, tasks, cgroup.threads). */
export function countLines(text: string | undefined): number {
  if (text === undefined) return 0;
  let n = 0;
  for (const l of text.split('\n')) if (l.trim() !== '') n++;
  return n;
}

/** /proc/meminfo → bytes ("MemTotal: 24576000 kB" → 24576000 × 1024). */
export function parseMeminfo(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([^:]+):\s+(\d+)(?:\s+(kB))?/.exec(line);
    if (m) out[m[1] as string] = Number(m[2]) * (m[3] ? 1024 : 1);
  }
  return out;
}

export interface LoadAvg {
  load1: number;
  load5: number;
  load15: number;
  running: number;
  total: number;
}

/** /proc/loadavg: "0.12 0.08 0.01 2/345 6789". */
export function parseLoadavg(text: string): LoadAvg | undefined {
  const m = /^([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\/(\d+)/.exec(text.trim());
  if (!m) return undefined;
  return { load1: Number(m[1]), load5: Number(m[2]), load15: Number(m[3]), running: Number(m[4]), total: Number(m[5]) };
}

export interface ProcStat {
  /** Aggregate cpu line in USER_HZ ticks. */
  cpu: { user: number; nice: number; system: number; idle: number; iowait: number; irq: number; softirq: number; steal: number };
  /** Boot time, epoch seconds. */
  btime: number;
  processes: number;
  procsRunning: number;
  /** Busy ticks (user+nice+system+irq+softirq; steal is the hypervisor's, not ours) of each "cpuN" line, indexed by N (offline CPUs: 0). */
  perCpuBusy: number[];
}

/** /proc/stat (aggregate cpu line, btime, processes, procs_running). */
export function parseProcStat(text: string): ProcStat {
  const out: ProcStat = {
    cpu: { user: 0, nice: 0, system: 0, idle: 0, iowait: 0, irq: 0, softirq: 0, steal: 0 },
    btime: 0,
    processes: 0,
    procsRunning: 0,
    perCpuBusy: [],
  };
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === 'cpu') {
      const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f.slice(1).map(Number);
      out.cpu = { user, nice, system, idle, iowait, irq, softirq, steal };
    } else if (f[0] !== undefined && /^cpu\d+$/.test(f[0])) {
      const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = f.slice(1).map(Number);
      const n = Number(f[0].slice(3));
      while (out.perCpuBusy.length < n) out.perCpuBusy.push(0);
      out.perCpuBusy[n] = user + nice + system + irq + softirq;
    } else if (f[0] === 'btime') out.btime = Number(f[1]);
    else if (f[0] === 'processes') out.processes = Number(f[1]);
    else if (f[0] === 'procs_running') out.procsRunning = Number(f[1]);
  }
  return out;
}
