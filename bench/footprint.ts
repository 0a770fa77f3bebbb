// bench/footprint: what the daemon costs the node. Starts the agent (embedded runtime) and the console, then samples
// each process's RSS and CPU (from /proc, every second for WINDOW_S (60) s) idle with no pods, and again with PODS (30)
// static pods running (a busybox `sleep` loop each). Prints p50/p99 of RSS and of CPU % of one core per 1 s sample,
// the mean CPU %, and the load average beside. `--compiled` runs `npm run build`'s output (dist/) with plain node
// instead of the sources through tsx.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot, waitUntil } from '../e2e/harness.ts';
import { createAgentProcess, type AgentProcess } from '../tests/conformance/agent-process.ts';
import { removeCgroupRoot } from '../tests/conformance/cgroups.ts';
import { benchPodManifest } from './runtimes.ts';
import { percentile, table } from './stats.ts';

const PODS = Number(process.env.PODS ?? 30);
const WINDOW_S = Number(process.env.WINDOW_S ?? 60);
const SETTLE_S = Number(process.env.SETTLE_S ?? 15);
const compiled = process.argv.includes('--compiled');
const TICK = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux.

interface Sample {
  cpuTicks: number;
  rssKiB: number;
}

/** utime+stime (ticks) and VmRSS (KiB) of `pid`; undefined once it is gone. */
function sample(pid: number): Sample | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuTicks: Number(f[11]) + Number(f[12]), rssKiB: Number(rss?.[1] ?? NaN) };
  } catch {
    return undefined;
  }
}

/** Samples every process once a second for WINDOW_S s: per name, [CPU % per interval], [RSS MiB]. */
async function measure(procs: Record<string, number>): Promise<{ cpu: Record<string, number[]>; rss: Record<string, number[]>; load: number }> {
  const cpu: Record<string, number[]> = {};
  const rss: Record<string, number[]> = {};
  let prev = Object.fromEntries(Object.entries(procs).map(([k, pid]) => [k, sample(pid)]));
  let t = performance.now();
  for (let i = 0; i < WINDOW_S; i++) {
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
  return { cpu, rss, load: loadavg()[0] ?? 0 };
}

/** The console (apps/web server) on a free port, signed in to `a`. */
async function startConsole(a: AgentProcess): Promise<ChildProcess> {
  const port = await freePort();
  const entry = compiled ? [join(repoRoot, 'dist/web/server.js')] : ['--import', 'tsx', join(repoRoot, 'apps/web/server.ts')];
  const c = spawn(process.execPath, entry, {
    cwd: join(repoRoot, 'apps/web'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), NEXT_TELEMETRY_DISABLED: '1', NODELET_AGENT_URL: a.kubeletUrl, NODELET_PKI_DIR: join(a.rootDir, 'pki'), NODELET_NODE_NAME: a.nodeName },
  });
  const log = createWriteStream(join(a.dir, 'console.log'));
  c.stdout?.pipe(log);
  c.stderr?.pipe(log);
  await waitUntil('console answers', async () => (await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' })).status > 0, 90_000);
  return c;
}

const runningPods = async (a: AgentProcess) =>
  ((await (await fetch(`${a.readOnlyUrl}/pods`)).json()) as { items: Array<{ status?: { phase?: string } }> }).items.filter((p) => p.status?.phase === 'Running').length;

if (compiled && !existsSync(join(repoRoot, 'dist/agent/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
const cgroupRoot = `/nodelet-bench-fp-${process.pid}`;
const a = await createAgentProcess({ nodeName: 'footprint', ...(compiled ? { compiledMain: join(repoRoot, 'dist/agent/main.js') } : {}), args: ['--cgroup-root', cgroupRoot] });
let web: ChildProcess | undefined;
const rows: string[][] = [];
try {
  await a.start();
  web = await startConsole(a);
  const runtimePid = Number(readFileSync(join(a.rootDir, 'runtime', 'runtime.pid'), 'utf8').trim());
  const procs = { agent: a.pid() ?? 0, 'embedded runtime': runtimePid, console: web.pid ?? 0 };
  for (const [name, pid] of Object.entries(procs)) console.error(`${name}: pid ${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')}`);
  const phases: Array<[string, () => Promise<void>]> = [
    ['idle, no pods', async () => {}],
    [`${PODS} pods`, async () => {
      for (let i = 0; i < PODS; i++) writeFileSync(join(a.manifests, `f${i}.json`), benchPodManifest(`f${i}`, 'nodelet.local/host:latest', 1));
      await waitUntil(`${PODS} pods running`, async () => (await runningPods(a)) === PODS, 180_000);
    }],
  ];
  for (const [phase, setup] of phases) {
    await setup();
    await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
    const m = await measure(procs);
    for (const name of Object.keys(procs)) {
      const c = m.cpu[name] ?? [];
      const r = m.rss[name] ?? [];
      const mean = c.reduce((x, y) => x + y, 0) / (c.length || 1);
      rows.push([name, phase, percentile(r, 50).toFixed(0), percentile(r, 99).toFixed(0), mean.toFixed(1), percentile(c, 50).toFixed(1), percentile(c, 99).toFixed(1), m.load.toFixed(2)]);
    }
    console.error(`${phase}: measured`);
  }
} finally {
  for (let i = 0; i < PODS; i++) rmSync(join(a.manifests, `f${i}.json`), { force: true });
  await waitUntil('pods removed', async () => (await runningPods(a)) === 0, 120_000).catch((e: unknown) => console.error(String(e)));
  if (web && web.exitCode === null) {
    web.kill('SIGTERM');
    await new Promise((r) => web?.once('exit', r));
  }
  await a.dispose();
  for (let i = 0; i < 20 && removeCgroupRoot(cgroupRoot).length > 0; i++) await new Promise((r) => setTimeout(r, 250));
}
console.log(`footprint (${compiled ? 'compiled JavaScript, plain node' : 'sources through tsx'}): ${WINDOW_S} s window after ${SETTLE_S} s settle, 1 s samples, ${cpus().length} cpus`);
console.log(table(['process', 'phase', 'RSS p50 MiB', 'RSS p99 MiB', 'CPU % mean', 'CPU % p50', 'CPU % p99', 'load 1m'], rows));
