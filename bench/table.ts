// bench/table (`npm run bench`): the one table of issue #14 — per runtime (embedded, and containerd when root with
// containerd installed): pod start (1 pod p50/p99, 30 and 110 at once) beside the raw CRI floor measured in the same
// run, container exit → /pods, the agent's (and the embedded runtime's) CPU/RSS idle and steady with 110 pods, and
// the stats endpoints at 110 pods; the 1-min load average beside every figure. It calls the bench modules' runners
// (pod-start.ts, footprint.ts, stats-endpoints.ts, pleg-latency.ts) on the compiled daemon (built when stale).
// `--runtime embedded|containerd|both`, `--only start,footprint,exit,stats` (default all), `--quick` (CI's smoke
// sizes: 1 pod, 3 at once, short windows). Prints markdown (the README's Benchmarks section holds the last one).
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../e2e/harness.ts';
import { runFootprint } from './footprint.ts';
import { benchPodStart, startTableRows, sizesFromArgv, type StartSizes } from './pod-start.ts';
import { compiledAgentMain, machineLine, removeBenchCgroupRoot, selectRuntimes, type RuntimeUnderTest } from './runtimes.ts';
import { fmtMs, percentile, table } from './stats.ts';
import { measure as plegLatency } from './pleg-latency.ts';
import { benchRuntime as statsEndpoints } from './stats-endpoints.ts';

export const TABLE_HEADER = ['runtime', 'measure', 'raw CRI floor', 'Nodelet', 'ratio', 'load 1m'];
export type Section = 'start' | 'footprint' | 'exit' | 'stats';
const ALL: Section[] = ['start', 'footprint', 'exit', 'stats'];

export interface TableOptions {
  sections: Section[];
  start: StartSizes;
  /** Pods for the steady-state footprint, its settle and sampling windows (s). */
  steadyPods: number;
  settleS: number;
  windowS: number;
  /** Container kills for exit → status (≥ 100: a p99 that is not the maximum), and what runs beside them (#14: 110 pods in all, 20 socket.io clients). */
  exitSamples: number;
  exitLoad: { pods?: number; clients?: number };
}

export const FULL: TableOptions = { sections: ALL, start: { singles: 100, bursts: [30, 110] }, steadyPods: 110, settleS: 15, windowS: 60, exitSamples: 100, exitLoad: { pods: 90, clients: 20 } };
export const QUICK: TableOptions = { sections: ['start'], start: { singles: 1, bursts: [3], warm: false }, steadyPods: 3, settleS: 2, windowS: 3, exitSamples: 3, exitLoad: {} };

const load = () => (loadavg()[0] ?? 0).toFixed(1);

/** runFootprint's rows (FOOTPRINT_HEADER: process, runtime, phase, RSS p50, RSS p99, CPU %, CPU p99, load) as table rows. */
function footprintRows(runtime: string, rows: string[][]): string[][] {
  return rows.map(([proc = '', , phase = '', rssP50 = '', , cpu = '', , l = '']) => {
    const what = phase.startsWith('idle') ? 'idle, 0 pods' : `steady, ${phase}`;
    return [runtime, `${what}: ${proc} CPU / RSS`, '—', `${cpu} % / ${rssP50} MiB`, '', Number(l).toFixed(1)];
  });
}

/** One runtime's block of rows. */
export async function runtimeRows(rt: RuntimeUnderTest, o: TableOptions): Promise<string[][]> {
  const rows: string[][] = [];
  if (o.sections.includes('start')) rows.push(...startTableRows(rt.name, await benchPodStart(rt, o.start)));
  if (o.sections.includes('footprint')) {
    const dist = join(repoRoot, 'dist');
    const fp = await runFootprint(rt, { pods: o.steadyPods, windowS: o.windowS, idleWindowS: o.windowS, settleS: o.settleS, dist, console: false, profileS: 0 });
    rows.push(...footprintRows(rt.name, fp));
  }
  if (o.sections.includes('exit')) {
    const r = await plegLatency(rt, true, o.exitSamples, o.exitLoad, join(repoRoot, 'dist/agent/main.js'));
    // From the runtime's finished_at (#14's zero); the SIGKILL's figure (adds the runtime's detection) beside it.
    const e = r.fromExit;
    for (const p of [50, 99]) {
      rows.push([rt.name, `container exit (finished_at) → /pods terminated (×${e.pods.length}) p${p}`, '—', `${fmtMs(percentile(e.pods, p))} (from the kill ${fmtMs(percentile(r.pods, p))})`, '', load()]);
      rows.push([rt.name, `container exit (finished_at) → socket.io podStatus (×${e.status.length}) p${p}`, '—', `${fmtMs(percentile(e.status, p))} (from the kill ${fmtMs(percentile(r.status, p))})`, '', load()]);
    }
  }
  if (o.sections.includes('stats')) {
    const cgroupRoots: string[] = [];
    try {
      for (const [, pods = '', cp50 = '', cp99 = '', first = '', , sp50 = '', sp99 = ''] of await statsEndpoints(rt, cgroupRoots, [o.steadyPods], join(repoRoot, 'dist/agent/main.js'))) {
        rows.push([rt.name, `/metrics/cadvisor at ${pods} pods p50 / p99 (first GET)`, '—', `${cp50} / ${cp99} (${first})`, '', load()]);
        rows.push([rt.name, `/stats/summary at ${pods} pods p50 / p99`, '—', `${sp50} / ${sp99}`, '', load()]);
      }
    } finally {
      for (const r of cgroupRoots) removeBenchCgroupRoot(r);
    }
  }
  return rows;
}

export function optionsFromArgv(argv: string[]): TableOptions {
  const base = argv.includes('--quick') ? QUICK : FULL;
  const only = argv.includes('--only') ? (argv[argv.indexOf('--only') + 1] ?? '').split(',') : undefined;
  const sections = only ? ALL.filter((s) => only.includes(s)) : base.sections;
  return { ...base, sections, start: sizesFromArgv(argv, base.start) };
}

async function main(): Promise<void> {
  const o = optionsFromArgv(process.argv);
  compiledAgentMain(); // builds dist/ when stale, once, before any runtime starts
  const runtimes = selectRuntimes(process.argv);
  const rows: string[][] = [];
  try {
    for (const rt of runtimes) {
      rows.push(...(await runtimeRows(rt, o)));
      console.error(table(TABLE_HEADER, rows)); // so far: a later runtime's failure keeps these
    }
  } finally {
    for (const rt of runtimes) await rt.stop().catch((e: unknown) => console.error(`stopping ${rt.name}: ${String(e)}`));
  }
  console.log(`\nNodelet (compiled, plain node) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${machineLine()}`);
  console.log('pod start: manifest written → Running on /pods; floor: RunPodSandbox + CreateContainer + StartContainer straight at the runtime, same run\n');
  console.log(table(TABLE_HEADER, rows));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
