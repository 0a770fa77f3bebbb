// bench/footprint: what the daemon costs the node. Starts the agent (and the console unless --no-console), then
// samples each process's RSS and CPU (from /proc, every second for WINDOW_S (60) s; IDLE_WINDOW_S for the idle one) idle with no pods, and again
// with PODS (30) static pods running (a busybox `sleep` loop each). Prints p50/p99 of RSS, CPU as process CPU
// seconds over wall time for the window (holds up under load) and p99 of the 1 s samples, with the load average
// beside; a window of two minutes or more also the lowest and highest of its minutes, and the CPU stolen in it. `--runtime embedded|containerd|both` (default embedded; containerd = a private one, root only).
// `--compiled` runs `npm run build`'s output (dist/) with plain node, `--dist <dir>` a build elsewhere
// (`node scripts/build.mjs --out <dir>`). `--profile <dir>`: after each measured window, a CPU profile
// (PROFILE_S (30) s), a heap snapshot and an allocation profile (PROFILE_S) of the agent and the embedded runtime over their inspectors into <dir>,
// with the top functions printed (the inspector costs a little: measure without it). Beside each window, the agent's
// CRI calls in it by operation (bench/runtime-ops.ts). AGENT_ARGS adds agent flags (an A/B of one setting), NODE_ARGS
// node's own flags before the agent's script; SMAPS_DIR=<dir> saves each process's /proc/<pid>/smaps after each window.
// The /proc readings (CPU and RSS, by thread, a window's samples): proc-usage.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, repoRoot, waitUntil } from '../e2e/harness.ts';
import { createAgentProcess, type AgentProcess } from '../tests/conformance/agent-process.ts';
import { removeCgroupRoot } from '../tests/conformance/cgroups.ts';
import { allocationProfile, cpuProfile, heapSnapshot, inspectorUrl, summarizeProfile } from './inspector.ts';
import { measure, rssParts, threadShares, threadTicks } from './proc-usage.ts';
import { benchPodManifest, removeBenchCgroupRoot, selectRuntimes, type RuntimeUnderTest } from './runtimes.ts';
import { operationRates, runtimeOperations } from './runtime-ops.ts';
import { table } from './stats.ts';

export interface FootprintOptions {
  pods: number;
  windowS: number;
  /** The idle phase's window (IDLE_WINDOW_S, default windowS): a long A/B at 110 pods need not idle as long. */
  idleWindowS: number;
  settleS: number;
  /** A build's output dir (dist/); undefined = the sources through tsx. */
  dist?: string;
  console: boolean;
  profileDir?: string;
  profileS: number;
}

/** The console (apps/web server) on a free port, signed in to `a`. */
async function startConsole(a: AgentProcess, dist: string | undefined): Promise<ChildProcess> {
  const port = await freePort();
  const entry = dist ? [join(dist, 'web/server.js')] : ['--import', 'tsx', join(repoRoot, 'apps/web/server.ts')];
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

export const runningPods = async (url: string) =>
  ((await (await fetch(`${url}/pods`)).json()) as { items: Array<{ status?: { phase?: string } }> }).items.filter((p) => p.status?.phase === 'Running').length;

/** CPU profile + heap snapshot of each inspected process (log file → name); prints the top functions. */
async function profile(dir: string, tag: string, logs: Record<string, string>, seconds: number): Promise<void> {
  await Promise.all(
    Object.entries(logs).map(async ([name, log]) => {
      const url = inspectorUrl(log);
      if (!url) return console.error(`${name}: no inspector URL in ${log}`);
      const base = join(dir, `${tag}-${name.replace(/\W+/g, '-')}`);
      const p = await cpuProfile(url, seconds * 1000, `${base}.cpuprofile`);
      const mem = await heapSnapshot(url, `${base}.heapsnapshot`);
      const mib = (k: string) => `${((mem[k] ?? 0) / 2 ** 20).toFixed(1)}`;
      console.log(`\n${tag} ${name}: rss ${mib('rss')} MiB, heapTotal ${mib('heapTotal')}, heapUsed ${mib('heapUsed')}, external ${mib('external')} (after GC)`);
      console.log(table(['% busy samples', 'function', 'where'], summarizeProfile(p, 20)));
      const alloc = await allocationProfile(url, seconds * 1000, `${base}.heapprofile`, 20);
      console.log(`\n${tag} ${name}: ${(alloc.bytes / 2 ** 20 / seconds).toFixed(2)} MiB allocated a second (sampled), by function`);
      console.log(table(['% bytes', 'function', 'where'], alloc.top));
    }),
  );
}

/** One runtime: idle, then `pods` pods; rows [process, runtime, phase, RSS p50, RSS p99, CPU %, CPU p99 %, load]. */
export async function runFootprint(rt: RuntimeUnderTest, o: FootprintOptions): Promise<string[][]> {
  const cgroupRoot = `/nodelet-bench-fp-${process.pid}`;
  if (o.profileDir) {
    mkdirSync(o.profileDir, { recursive: true });
    process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:0`.trim(); // the agent and the runtime it spawns
  }
  const a = await createAgentProcess({
    nodeName: 'footprint',
    ...(rt.endpoint ? { endpoint: rt.endpoint } : {}),
    ...(o.dist ? { compiledMain: join(o.dist, 'agent/main.js') } : {}),
    // NODE_ARGS: node/V8 flags for the agent that NODE_OPTIONS refuses (e.g. `--single-threaded-gc`), for an A/B.
    nodeArgs: (process.env.NODE_ARGS ?? '').split(' ').filter(Boolean),
    // The kubelet's default rescan (20 s; the harness sets 1 s for tests): a steady state as deployed. New
    // manifests are still seen at once through the directory watch.
    // AGENT_ARGS: more agent flags for an A/B (space-separated, e.g. `--housekeeping-interval 1h`).
    args: ['--cgroup-root', cgroupRoot, '--file-check-frequency', '20s', ...(process.env.AGENT_ARGS ?? '').split(' ').filter(Boolean)],
  });
  let web: ChildProcess | undefined;
  const rows: string[][] = [];
  try {
    await a.start();
    if (o.profileDir) process.env.NODE_OPTIONS = process.env.NODE_OPTIONS?.replace('--inspect=127.0.0.1:0', '').trim();
    if (o.console) web = await startConsole(a, o.dist);
    const procs: Record<string, number> = { agent: a.pid() ?? 0 };
    const logs: Record<string, string> = { agent: join(a.dir, 'agent.log') };
    if (!rt.endpoint) {
      procs['embedded runtime'] = Number(readFileSync(join(a.rootDir, 'runtime', 'runtime.pid'), 'utf8').trim());
      logs['embedded runtime'] = join(a.rootDir, 'runtime', 'runtime.log');
    }
    if (web?.pid) procs.console = web.pid;
    for (const [name, pid] of Object.entries(procs)) console.error(`${name}: pid ${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')}`);
    const phases: Array<[string, number, () => Promise<void>]> = [
      ['idle, no pods', o.idleWindowS, async () => {}],
      [`${o.pods} pods`, o.windowS, async () => {
        for (let i = 0; i < o.pods; i++) writeFileSync(join(a.manifests, `f${i}.json`), benchPodManifest(`f${i}`, rt.image, 1));
        await waitUntil(`${o.pods} pods running`, async () => (await runningPods(a.readOnlyUrl)) === o.pods, 120_000 + o.pods * 6000);
      }],
    ];
    const ops = async () => runtimeOperations(await (await fetch(`${a.readOnlyUrl}/metrics`)).text());
    for (const [phase, windowS, setup] of phases) {
      await setup();
      await new Promise((r) => setTimeout(r, o.settleS * 1000));
      const opsBefore = await ops();
      const threadsBefore = Object.fromEntries(Object.entries(procs).map(([k, pid]) => [k, threadTicks(pid)]));
      const m = await measure(procs, windowS);
      for (const [name, pid] of Object.entries(procs)) console.log(`${rt.name} ${phase} ${name} CPU by thread: ${threadShares(threadsBefore[name] ?? new Map(), threadTicks(pid), windowS)}`);
      console.log(`\n${rt.name} ${phase}: the agent's CRI calls in the ${windowS} s window (kubelet_runtime_operations_total)\n${table(['operation', 'calls', 'per minute'], operationRates(opsBefore, await ops(), windowS))}`);
      for (const [name, u] of Object.entries(m.usage)) {
        const minutes = u.cpuMinutes.length > 1 ? `${Math.min(...u.cpuMinutes).toFixed(2)}–${Math.max(...u.cpuMinutes).toFixed(2)}` : '';
        rows.push([name, rt.name, phase, u.rssP50.toFixed(0), u.rssP99.toFixed(0), u.cpuPct.toFixed(2), u.cpuP99.toFixed(1), m.load.toFixed(2), minutes, m.stolen === undefined ? '' : m.stolen.toFixed(1)]);
        if (u.cpuMinutes.length > 1) console.log(`${rt.name} ${phase} ${name} CPU % per minute: ${u.cpuMinutes.map((x) => x.toFixed(2)).join(' ')}`);
        console.error(`  ${rows.at(-1)?.join(' | ')}`); // kept when a later phase fails
      }
      for (const [name, pid] of Object.entries(procs)) console.log(`${rt.name} ${phase} ${name}: ${rssParts(pid)}`);
      // SMAPS_DIR: each process's /proc/<pid>/smaps after the window (which mappings grew between the phases).
      const smapsDir = process.env.SMAPS_DIR;
      if (smapsDir) {
        mkdirSync(smapsDir, { recursive: true });
        for (const [name, pid] of Object.entries(procs)) writeFileSync(join(smapsDir, `${rt.name}-${phase.split(',')[0]?.replace(/\W+/g, '')}-${name.replace(/\W+/g, '-')}.smaps`), readFileSync(`/proc/${pid}/smaps`));
      }
      console.error(`${rt.name} ${phase}: measured`);
      if (o.profileDir) await profile(o.profileDir, `${rt.name}-${o.pods}-${phase.split(',')[0]?.replace(/\W+/g, '')}`, logs, o.profileS);
    }
  } finally {
    for (let i = 0; i < o.pods; i++) rmSync(join(a.manifests, `f${i}.json`), { force: true });
    await waitUntil('pods removed', async () => (await runningPods(a.readOnlyUrl)) === 0, 180_000).catch((e: unknown) => console.error(String(e)));
    // Stopped and cleaned up, not only gone from /pods: an agent stopped mid-termination leaves the pods' cgroups.
    await waitUntil('pod cgroups removed', async () => podCgroupsLeft(cgroupRoot) === 0, 180_000).catch((e: unknown) => console.error(String(e)));
    if (web && web.exitCode === null) {
      web.kill('SIGTERM');
      await new Promise((r) => web?.once('exit', r));
    }
    await a.dispose();
    for (let i = 0; i < 20 && removeCgroupRoot(cgroupRoot).length > 0; i++) await new Promise((r) => setTimeout(r, 250));
    removeBenchCgroupRoot(cgroupRoot); // what is still in use goes when the runtime stops
  }
  return rows;
}

/** Pod cgroups (pod<uid>) under the memory hierarchy's <root>/kubepods, its QoS classes included. */
function podCgroupsLeft(cgroupRoot: string): number {
  const kubepods = join('/sys/fs/cgroup', existsSync('/sys/fs/cgroup/memory') ? 'memory' : '', cgroupRoot, 'kubepods');
  const pods = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith('pod')).length : 0);
  return pods(kubepods) + pods(join(kubepods, 'burstable')) + pods(join(kubepods, 'besteffort'));
}

export const FOOTPRINT_HEADER = ['process', 'runtime', 'phase', 'RSS p50 MiB', 'RSS p99 MiB', 'CPU % (s/s)', 'CPU % p99 1 s', 'load 1m', 'CPU % of a minute, min–max', 'CPU stolen %'];

async function main(): Promise<void> {
  const argv = process.argv;
  const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const distArg = arg('--dist');
  const dist = distArg ? resolve(distArg) : argv.includes('--compiled') ? join(repoRoot, 'dist') : undefined;
  if (dist && !existsSync(join(dist, 'agent/main.js'))) throw new Error(`${dist}/agent/main.js is missing: run \`npm run build\` first`);
  const profileDir = arg('--profile');
  const o: FootprintOptions = {
    pods: Number(process.env.PODS ?? 30),
    windowS: Number(process.env.WINDOW_S ?? 60),
    idleWindowS: Number(process.env.IDLE_WINDOW_S ?? process.env.WINDOW_S ?? 60),
    settleS: Number(process.env.SETTLE_S ?? 15),
    ...(dist ? { dist } : {}),
    console: !argv.includes('--no-console'),
    ...(profileDir ? { profileDir: resolve(profileDir) } : {}),
    profileS: Number(process.env.PROFILE_S ?? 30),
  };
  const runtimes = selectRuntimes(argv.includes('--runtime') ? argv : [...argv, '--runtime', 'embedded']);
  const rows: string[][] = [];
  try {
    for (const rt of runtimes) rows.push(...(await runFootprint(rt, o)));
  } finally {
    for (const rt of runtimes) await rt.stop().catch((e: unknown) => console.error(`stopping ${rt.name}: ${String(e)}`));
  }
  console.log(`\nfootprint (${dist ? `compiled JavaScript from ${dist}, plain node` : 'sources through tsx'}): ${o.windowS} s window after ${o.settleS} s settle, ${cpus().length} cpus`);
  console.log(table(FOOTPRINT_HEADER, rows));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
