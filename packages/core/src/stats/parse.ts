/** Parsers for cgroup and /proc files: flat "key value" files, single numbers, lists and line counts from bytes; /proc text. */

// The cgroup files every housekeeping sample reads are parsed from their bytes (read into one reused buffer,
// stat-files.ts): no string per file, no string per key. Numbers are what Number() made of the text before: up to 15
// digits are summed exactly (< 2^53); anything else (more digits, a sign, a dot, an exponent) goes through Number()
// on the token's text, so a limit such as 9223372036854771712 rounds as Number("9223372036854771712") does.

/** ASCII whitespace (what trim() and /\s+/ strip in these files): \t \n \v \f \r and space. */
export function isBlank(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** The field separators of a flat "key value" line: space, tab, and the CR of a CRLF line. */
function isSep(c: number): boolean {
  return c === 32 || c === 9 || c === 13;
}

/** The number in b[a, e) as Number(text) reads it; NaN when it is none. */
export function parseNumber(b: Buffer, a: number, e: number): number {
  if (e > a && e - a <= 15) {
    let v = 0;
    let i = a;
    for (; i < e; i++) {
      const d = (b[i] as number) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === e) return v;
  }
  return Number(b.toString('utf8', a, e));
}

/**
 * The keys a reader takes from a flat "key value" file (memory.stat, cpu.stat, cpuacct.stat, memory.events,
 * memory.oom_control), and their values after a parse. One table per reader and file: its values hold until the
 * next parse into it.
 */
export class KeyTable<K extends string> {
  private readonly names: Buffer[];
  private readonly index: Record<string, number> = {};
  readonly values: Float64Array;

  constructor(readonly keys: readonly K[]) {
    this.names = keys.map((k) => Buffer.from(k));
    keys.forEach((k, i) => (this.index[k] = i));
    this.values = new Float64Array(keys.length).fill(Number.NaN);
  }

  /** The value of `key` from the last parse; undefined when the file had no such line (or no number on it). */
  get(key: K): number | undefined {
    const v = this.values[this.index[key] as number] as number;
    return Number.isNaN(v) ? undefined : v;
  }

  /** Which key b[a, e) is, or -1. */
  find(b: Buffer, a: number, e: number): number {
    const len = e - a;
    for (let k = 0; k < this.names.length; k++) {
      const name = this.names[k] as Buffer;
      if (name.length === len && name[0] === b[a] && b.compare(name, 0, len, a, e) === 0) return k;
    }
    return -1;
  }
}

/**
 * "key value" lines of b[0, n) into `t`: the first two blank-separated fields of each line; a later line of the same
 * key wins; a value that is not a finite number is skipped. Keys not in `t` are passed over without a copy.
 */
export function parseFlatKeyed<K extends string>(b: Buffer, n: number, t: KeyTable<K>): KeyTable<K> {
  t.values.fill(Number.NaN);
  for (let i = 0; i < n; ) {
    let end = i;
    while (end < n && b[end] !== 10) end++;
    let a = i;
    while (a < end && isSep(b[a] as number)) a++;
    let e = a;
    while (e < end && !isSep(b[e] as number)) e++;
    let c = e;
    while (c < end && isSep(b[c] as number)) c++;
    let d = c;
    while (d < end && !isSep(b[d] as number)) d++;
    if (e > a && d > c) {
      const k = t.find(b, a, e);
      if (k >= 0) {
        const v = parseNumber(b, c, d);
        if (Number.isFinite(v)) t.values[k] = v;
      }
    }
    i = end + 1;
  }
  return t;
}

/** A single-number file in b[0, n): 'max' → -1; blank or garbage → undefined. */
export function parseSingle(b: Buffer, n: number): number | undefined {
  let a = 0;
  let e = n;
  while (a < e && isBlank(b[a] as number)) a++;
  while (e > a && isBlank(b[e - 1] as number)) e--;
  if (e === a) return undefined;
  if (e - a === 3 && b[a] === 109 && b[a + 1] === 97 && b[a + 2] === 120) return -1; // "max"
  const v = parseNumber(b, a, e);
  return Number.isFinite(v) ? v : undefined;
}

/** Blank-separated unsigned integers in b[0, n) (cpuacct.usage_percpu); undefined when none or one is not digits. */
export function parseList(b: Buffer, n: number): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < n; ) {
    while (i < n && isBlank(b[i] as number)) i++;
    if (i >= n) break;
    const a = i;
    while (i < n && !isBlank(b[i] as number)) {
      const c = b[i] as number;
      if (c < 48 || c > 57) return undefined;
      i++;
    }
    out.push(parseNumber(b, a, i));
  }
  return out.length === 0 ? undefined : out;
}

/** Lines of b[0, n) with something other than blanks on them (cgroup.procs, tasks, cgroup.threads). */
export function countLines(b: Buffer, n: number): number {
  let count = 0;
  let seen = false;
  for (let i = 0; i < n; i++) {
    const c = b[i] as number;
    if (c === 10) {
      if (seen) count++;
      seen = false;
    } else if (!isBlank(c)) seen = true;
  }
  return seen ? count + 1 : count;
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
