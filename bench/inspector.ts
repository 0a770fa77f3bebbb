// bench/inspector: CPU profiles and heap snapshots of a running node process over its inspector (the process was
// started with NODE_OPTIONS=--inspect=127.0.0.1:0, which prints "Debugger listening on ws://…" to its log).
// The CPU profile covers a chosen window only (not start-up), the format `node --cpu-prof` writes (.cpuprofile);
// `summarizeProfile` lists the top functions by self samples, `summarizeByAppFrame` by the nearest caller in our code.
// `node --import tsx bench/inspector.ts <file.cpuprofile>… [--app <url part>]` prints both for saved profiles
// (--app: what marks a frame as ours; default "/dist/").
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { table } from './stats.ts';

interface CdpNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
export interface CpuProfile {
  nodes: CdpNode[];
  samples?: number[];
  startTime: number;
  endTime: number;
}

/** The inspector's WebSocket URL printed into `logFile` (the last one: a restarted process prints a new one). */
export function inspectorUrl(logFile: string): string | undefined {
  const all = [...readFileSync(logFile, 'utf8').matchAll(/Debugger listening on (ws:\/\/\S+)/g)];
  return all.at(-1)?.[1];
}

/** One CDP session: `send(method, params)` → result; `on(event, fn)`. */
async function session(url: string) {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 2 ** 31 });
  await new Promise<void>((res, rej) => {
    ws.once('open', () => res());
    ws.once('error', rej);
  });
  let next = 1;
  const waiting = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  const handlers = new Map<string, (p: unknown) => void>();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m);
    else if (m.method) handlers.get(m.method)?.(m.params);
  });
  return {
    send: (method: string, params: object = {}) =>
      new Promise<unknown>((res, rej) => {
        const id = next++;
        waiting.set(id, (m) => (m.error ? rej(new Error(`${method}: ${JSON.stringify(m.error)}`)) : res(m.result)));
        ws.send(JSON.stringify({ id, method, params }));
      }),
    on: (event: string, fn: (p: unknown) => void) => handlers.set(event, fn),
    close: () => ws.close(),
  };
}

/** Samples the process's CPU for `ms` and writes the profile to `out`. */
export async function cpuProfile(url: string, ms: number, out: string): Promise<CpuProfile> {
  const s = await session(url);
  try {
    await s.send('Profiler.enable');
    await s.send('Profiler.setSamplingInterval', { interval: 1000 });
    await s.send('Profiler.start');
    await new Promise((r) => setTimeout(r, ms));
    const { profile } = (await s.send('Profiler.stop')) as { profile: CpuProfile };
    writeFileSync(out, JSON.stringify(profile));
    return profile;
  } finally {
    s.close();
  }
}

interface AllocNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocNode[];
}

/**
 * V8's sampling heap profiler for `ms` (HeapProfiler.startSampling, a sample every 32 KiB allocated), counting what the
 * garbage collector freed too: what allocates, not what stays. Written to `out`; returns the top `n` functions by
 * bytes allocated as [share, function, where] and the total bytes sampled.
 */
export async function allocationProfile(url: string, ms: number, out: string, n = 15): Promise<{ top: Array<[string, string, string]>; bytes: number }> {
  const s = await session(url);
  try {
    await s.send('HeapProfiler.enable');
    await s.send('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    await new Promise((r) => setTimeout(r, ms));
    const { profile } = (await s.send('HeapProfiler.stopSampling')) as { profile: { head: AllocNode } };
    writeFileSync(out, JSON.stringify(profile));
    const bytes = new Map<string, number>();
    let total = 0;
    const walk = (node: AllocNode): void => {
      const f = node.callFrame;
      const key = `${f.functionName || '(anonymous)'}\t${f.url ? `${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}` : ''}`;
      bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
      for (const c of node.children) walk(c);
    };
    walk(profile.head);
    return { top: topShares(bytes, total, n), bytes: total };
  } finally {
    s.close();
  }
}

/** Takes a heap snapshot into `out` (after a GC); returns the process's memoryUsage() at that time. */
export async function heapSnapshot(url: string, out: string): Promise<Record<string, number>> {
  const s = await session(url);
  try {
    const chunks: string[] = [];
    s.on('HeapProfiler.addHeapSnapshotChunk', (p) => chunks.push((p as { chunk: string }).chunk));
    await s.send('HeapProfiler.enable');
    await s.send('HeapProfiler.collectGarbage');
    const mem = (await s.send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as { result: { value: string } };
    await s.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    writeFileSync(out, chunks.join(''));
    return JSON.parse(mem.result.value) as Record<string, number>;
  } finally {
    s.close();
  }
}

/** Top `n` functions by self samples: [% of busy (non-idle) samples, function, where]; (program) and (garbage collector) as V8 names them. */
export function summarizeProfile(p: CpuProfile, n = 15): Array<[string, string, string]> {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const counts = new Map<string, number>();
  let total = 0;
  for (const id of p.samples ?? []) {
    const node = byId.get(id);
    if (!node) continue;
    const f = node.callFrame;
    const where = f.url ? `${f.url.replace(/^.*\/(node_modules\/|dist[^/]*\/|src\/)/, '$1')}:${f.lineNumber + 1}` : '';
    if (f.functionName === '(idle)') continue; // % of busy samples: idle is most of a quiet window
    const key = `${f.functionName || '(anonymous)'}\t${where}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    total++;
  }
  return topShares(counts, total, n);
}

/** The `n` largest of `counts` (keys "function\twhere") as [share of `total`, function, where] rows. */
function topShares(counts: Map<string, number>, total: number, n: number): Array<[string, string, string]> {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, c]) => {
      const [fn = '', where = ''] = k.split('\t');
      return [`${((c / total) * 100).toFixed(1)} %`, fn, where];
    });
}

/** Busy (non-idle) samples and their CPU ms (the sampling interval is 1 ms). */
export function busyMs(p: CpuProfile): { busy: number; total: number; wallMs: number } {
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const total = p.samples?.length ?? 0;
  const busy = (p.samples ?? []).filter((id) => !idle.has(id)).length;
  return { busy, total, wallMs: (p.endTime - p.startTime) / 1000 };
}

/**
 * Inclusive cost by the nearest caller in our own code (a frame of the bundle, `appUrl` in its URL): what in the
 * daemon a sample of library/node code (grpc, fs, JSON) ran for. Samples with no app frame are "(outside)".
 */
export function summarizeByAppFrame(p: CpuProfile, appUrl: string, n = 15): Array<[string, string, string]> {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const counts = new Map<string, number>();
  let total = 0;
  for (const id of p.samples ?? []) {
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === '(idle)') continue;
    let cur: number | undefined = id;
    let key = `(outside)\t${leaf.callFrame.functionName}`;
    while (cur !== undefined) {
      const f = byId.get(cur)?.callFrame;
      if (f?.url.includes(appUrl)) {
        key = `${f.functionName || '(anonymous)'}\t${f.url.slice(f.url.lastIndexOf('/') + 1)}:${f.lineNumber + 1}`;
        break;
      }
      cur = parent.get(cur);
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
    total++;
  }
  return topShares(counts, total, n);
}

/** Prints the CPU share, the top self functions and the top app callers of a profile. */
export function printProfile(name: string, p: CpuProfile, appUrl: string): void {
  const b = busyMs(p);
  console.log(`\n${name}: ${b.busy} busy of ${b.total} samples over ${(b.wallMs / 1000).toFixed(1)} s = ${((b.busy / b.wallMs) * 100).toFixed(2)} % of a core`);
  console.log(table(['% busy (self)', 'function', 'where'], summarizeProfile(p, 12)));
  console.log(table(['% busy (incl.)', 'nearest caller in our code', 'where'], summarizeByAppFrame(p, appUrl, 20)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const app = args.includes('--app') ? (args[args.indexOf('--app') + 1] ?? '/dist/') : '/dist/';
  for (const f of args.filter((a, i) => a !== '--app' && args[i - 1] !== '--app')) printProfile(f, JSON.parse(readFileSync(f, 'utf8')) as CpuProfile, app);
}
