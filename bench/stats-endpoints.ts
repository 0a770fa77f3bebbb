// bench/stats-endpoints (`npm run bench:stats`): /metrics/cadvisor and /stats/summary latency (p50/p99 over
// REQUESTS GETs on the read-only port, one every GAP_MS as a scraper's are spaced, so the housekeeping's new samples
// between them are rendered as in a real scrape; the first GET of each endpoint also alone: a process's first render) and the agent's CPU (utime+stime from /proc/<pid>/stat over an
// idle window, then over the request burst) and RSS, with 30 and 110 sleeping pods from static manifests, measured
// BENCH_SETTLE_MS (30 s) after every pod is in /stats/summary.
// Runs on the embedded runtime, and on containerd too when root with containerd installed
// (`--runtime embedded|containerd|both`). The agent is the compiled daemon (dist/agent/main.js, built when stale;
// `--dist <dir>` a build elsewhere) with the daemons' environment, as deployed. (bench/stats.ts holds the shared
// table helpers.)
import { get as httpGet } from 'node:http';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { removeCgroupTree, startStack, waitUntil, type Stack } from '../e2e/harness.ts';
import { fmtMs, percentile, slowest, table } from './stats.ts';
import { benchPodManifest, compiledAgentMain, selectRuntimes, type RuntimeUnderTest } from './runtimes.ts';

/** 100: the p99 of 30 GETs was their maximum, i.e. the first. */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
/**
 * Between GETs (ms). Back to back, every GET after the first hit the page kept for the same samples; 200 ms apart, at
 * 110 pods ≈ 3 of the ≈ 230 housekeeping cgroups have a new sample before each GET, which is rendered again.
 */
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 200);
const POD_COUNTS = (process.env.BENCH_PODS ?? '30,110').split(',').map(Number);
const IDLE_WINDOW_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);
/**
 * After every pod is in /stats/summary, before the idle window: the steady state at N pods, not the tail of their
 * start (containerd's shims and the pods' first housekeepings; the 1-min load was 9 right after 110 starts).
 */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 30_000);
const CLK_TCK = 100;

const manifest = (name: string, image: string) => benchPodManifest(name, image, 5);

/** The agent process of a stack: the node process whose argv names its main (`agentMain`) and this root dir. */
function agentPid(stack: Stack, agentMain: string): number {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (argv.includes(agentMain) && argv.includes(stack.rootDir)) return Number(d);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('agent process not found');
}

/** utime + stime of a process in seconds. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

function rssMiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function running(stack: Stack): Promise<number> {
  const r = await fetch(`${stack.readOnlyUrl}/pods`);
  const body = (await r.json()) as { items: Array<{ status?: { phase?: string } }> };
  return body.items.filter((p) => p.status?.phase === 'Running').length;
}

async function summaryPods(stack: Stack): Promise<number> {
  const r = await fetch(`${stack.readOnlyUrl}/stats/summary?only_cpu_and_memory=true`);
  return ((await r.json()) as { pods?: unknown[] }).pods?.length ?? 0;
}

/** One GET as Prometheus sends it (Accept-Encoding: gzip): the status, the body as sent, and whether it is gzipped. */
function getRaw(url: string): Promise<{ status: number; body: Buffer; gzip: boolean }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'Accept-Encoding': 'gzip' }, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), gzip: res.headers['content-encoding'] === 'gzip' }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Time to the last byte of each response (node:http, not fetch: undici's decoding of a 1–2 MiB body in this same
 * process took 40–90 ms, more than the agent's part); `bytes` is the decoded size of the last body.
 */
async function latencies(url: string): Promise<{ ms: number[]; bytes: number }> {
  const ms: number[] = [];
  let last: { status: number; body: Buffer; gzip: boolean } | undefined;
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    last = await getRaw(url);
    ms.push(performance.now() - t0);
    if (last.status !== 200) throw new Error(`${url}: ${last.status} ${last.body.subarray(0, 200).toString()}`);
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  // Which GETs make the p99 (the first is a process's first render; a later one waited on something else).
  console.log(`${new URL(url).pathname}: the slowest GETs (#: ms, the first is #0) ${slowest(ms, 4).map(([i, v]) => `#${i}: ${v.toFixed(0)}`).join(', ')}`);
  return { ms, bytes: last ? (last.gzip ? gunzipSync(last.body) : last.body).length : 0 };
}

async function measure(rt: RuntimeUnderTest, stack: Stack, pid: number, pods: number): Promise<string[]> {
  // Let a full housekeeping pass sample every pod before measuring.
  await waitUntil(`${pods} pods in /stats/summary`, async () => (await summaryPods(stack)) >= pods, 60_000);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const idle0 = cpuSeconds(pid);
  await new Promise((r) => setTimeout(r, IDLE_WINDOW_MS));
  const idlePct = ((cpuSeconds(pid) - idle0) / (IDLE_WINDOW_MS / 1000)) * 100;
  const busy0 = cpuSeconds(pid);
  const t0 = performance.now();
  const cadvisor = await latencies(`${stack.readOnlyUrl}/metrics/cadvisor`);
  const summary = await latencies(`${stack.readOnlyUrl}/stats/summary`);
  // CPU over the GETs' wall time: with the gaps, the steady load plus the scrapes.
  const busyPct = ((cpuSeconds(pid) - busy0) / ((performance.now() - t0) / 1000)) * 100;
  return [
    rt.name,
    String(pods),
    fmtMs(percentile(cadvisor.ms, 50)),
    fmtMs(percentile(cadvisor.ms, 99)),
    fmtMs(cadvisor.ms[0] ?? NaN),
    `${(cadvisor.bytes / 1024).toFixed(0)} KiB`,
    fmtMs(percentile(summary.ms, 50)),
    fmtMs(percentile(summary.ms, 99)),
    `${idlePct.toFixed(1)} %`,
    `${busyPct.toFixed(0)} %`,
    `${rssMiB(pid).toFixed(0)} MiB`,
    (loadavg()[0] ?? 0).toFixed(2),
  ];
}

/**
 * One runtime: rows [runtime, pods, cadvisor p50, p99, first, size, summary p50, p99, CPU idle, CPU busy, RSS] per pod count;
 * `agentMain` is the compiled agent to run (a build's agent/main.js).
 */
export async function benchRuntime(rt: RuntimeUnderTest, cgroupRoots: string[], podCounts: number[], agentMain: string): Promise<string[][]> {
  const extra = rt.endpoint ? ['--container-runtime-endpoint', rt.endpoint] : [];
  const stack = await startStack({ nodeName: 'bench', withConsole: false, extraAgentArgs: extra, agentMain });
  cgroupRoots.push(`/${basename(stack.dir)}`);
  const rows: string[][] = [];
  let written = 0;
  try {
    const pid = agentPid(stack, agentMain);
    for (const pods of podCounts) {
      for (; written < pods; written++) writeFileSync(join(stack.manifests, `p${written}.json`), manifest(`p${written}`, rt.image));
      await waitUntil(`${pods} pods Running`, async () => (await running(stack)) >= pods, 240_000);
      rows.push(await measure(rt, stack, pid, pods));
      console.error(`${rt.name} ${pods} pods: ${rows.at(-1)?.join(' | ')}`);
    }
    for (const f of readdirSync(stack.manifests)) rmSync(join(stack.manifests, f));
    await waitUntil('pods removed', async () => (await running(stack)) === 0, 180_000).catch((e) => console.error(String(e)));
  } finally {
    await stack.stop();
  }
  return rows;
}

async function main(): Promise<void> {
  const distArg = process.argv.includes('--dist') ? process.argv[process.argv.indexOf('--dist') + 1] : undefined;
  const agentMain = distArg ? join(resolve(distArg), 'agent/main.js') : compiledAgentMain();
  const rows: string[][] = [];
  for (const rt of selectRuntimes(process.argv)) {
    const cgroupRoots: string[] = [];
    try {
      rows.push(...(await benchRuntime(rt, cgroupRoots, POD_COUNTS, agentMain)));
    } finally {
      await rt.stop();
      // containerd's pod cgroups outlive the agent until containerd is down: remove the stack's tree again.
      for (const r of cgroupRoots) removeCgroupTree(r);
    }
  }
  const cpu = cpus();
  console.log(`\nstats endpoints: ${REQUESTS} GETs each, ${GAP_MS} ms apart, on the read-only port (Accept-Encoding: gzip, time to the last byte); agent ${agentMain} (plain node): CPU idle over ${IDLE_WINDOW_MS / 1000} s, then during the GETs`);
  console.log(`machine: ${cpu.length} cores × ${cpu[0]?.model ?? 'unknown cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}\n`);
  console.log(
    table(['runtime', 'pods', 'cadvisor p50', 'cadvisor p99', 'cadvisor first GET', 'cadvisor size', 'summary p50', 'summary p99', 'agent CPU idle', 'agent CPU busy', 'agent RSS', 'load 1m'], rows),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
