// bench/recovery: how fast the agent is whole again after (a) the embedded runtime is SIGKILLed (the agent restarts
// it), (b) containerd is SIGKILLed and started again, (c) the agent itself is SIGKILLed and started again with PODS
// (30) pods running: every pod back on /pods with its old container ids. p50/p99 over REPS (3) repetitions, with the
// load average beside. containerd stays down OUTAGE_S (30) s after the agent saw it down. `--runtime
// embedded|containerd|both` (containerd: a private instance, root only). `--compiled`: the agent (and so its
// embedded runtime) as `npm run build`'s dist/ with plain node, as users run it, instead of the sources through tsx.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot, waitUntil } from '../e2e/harness.ts';
import { createAgentProcess, type AgentProcess } from '../tests/conformance/agent-process.ts';
import { removeCgroupRoot } from '../tests/conformance/cgroups.ts';
import { killContainerd, startContainerd } from '@nodelet/agent/testing';
import { probeEndpoint } from '@nodelet/agent';
import { benchPodManifest, selectRuntimes, type RuntimeUnderTest } from './runtimes.ts';
import { fmtMs, percentile, table } from './stats.ts';

const REPS = Number(process.env.REPS ?? 3);
const PODS = Number(process.env.PODS ?? 30);
const OUTAGE_S = Number(process.env.OUTAGE_S ?? 30);
const LIMIT_MS = 60_000;
const compiledMain = process.argv.includes('--compiled') ? join(repoRoot, 'dist/agent/main.js') : undefined;
if (compiledMain && !existsSync(compiledMain)) throw new Error('dist/ is missing: run `npm run build` first');
type Pod = { metadata: { name: string }; status?: { phase?: string; containerStatuses?: Array<{ containerID?: string; state?: { running?: unknown } }> } };

/** Polls every 10 ms; ms since `t0` when pred first held (NaN on timeout). */
async function after(t0: number, pred: () => Promise<boolean> | boolean, ms = LIMIT_MS): Promise<number> {
  while (performance.now() - t0 < ms) {
    if (await Promise.resolve().then(pred).catch(() => false)) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 10));
  }
  return NaN;
}

async function pods(a: AgentProcess): Promise<Pod[]> {
  return ((await (await fetch(`${a.readOnlyUrl}/pods`)).json()) as { items: Pod[] }).items;
}

/** pod name → its container id, for pods whose container runs. */
async function runningIds(a: AgentProcess): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of await pods(a)) {
    const c = p.status?.containerStatuses?.[0];
    if (p.status?.phase === 'Running' && c?.state?.running && c.containerID) out.set(p.metadata.name, c.containerID);
  }
  return out;
}

/** Every pod that ran before the disruption runs again with the same container id. */
const sameIds = (want: Map<string, string>) => async (a: AgentProcess) => {
  const now = await runningIds(a);
  return [...want].every(([k, v]) => now.get(k) === v);
};

const healthy = async (a: AgentProcess) => (await fetch(`http://127.0.0.1:${a.ports.healthz}/healthz`)).status === 200;

function runtimePid(a: AgentProcess): number {
  const f = join(a.rootDir, 'runtime', 'runtime.pid');
  return existsSync(f) ? Number(readFileSync(f, 'utf8').trim()) : 0;
}

/** Embedded runtime SIGKILLed: [new runtime answering, agent healthy with every pod's old id]. */
async function runtimeKill(a: AgentProcess, ids: Map<string, string>): Promise<number[]> {
  const old = runtimePid(a);
  const t0 = performance.now();
  process.kill(old, 'SIGKILL');
  const restarted = await after(t0, async () => runtimePid(a) !== old && (await probeEndpoint(a.endpoint, 200)));
  const back = await after(t0, async () => (await healthy(a)) && (await sameIds(ids)(a)));
  return [restarted, back];
}

/**
 * containerd SIGKILLed, kept down OUTAGE_S after the agent reports it down (back-offs grow meanwhile), then
 * started: [healthz 200 and every pod with its old id, after it serves again].
 */
async function containerdRestart(a: AgentProcess, ids: Map<string, string>): Promise<number[]> {
  const state = dirname(a.endpoint.replace(/^unix:\/\//, ''));
  killContainerd(state);
  await waitUntil('healthz reports the runtime down', async () => !(await healthy(a)), 30_000);
  await new Promise((r) => setTimeout(r, OUTAGE_S * 1000));
  await startContainerd(state);
  const t0 = performance.now();
  const back = await after(t0, async () => (await healthy(a)) && (await sameIds(ids)(a)));
  return [back];
}

/** When the agent last logged its loaded config (the process is up, its modules loaded), epoch ms. */
function configLoadedAt(a: AgentProcess): number {
  const lines = readFileSync(join(a.dir, 'agent.log'), 'utf8').split('\n').filter((l) => l.includes('"msg":"loaded config"'));
  return Date.parse((JSON.parse(lines.at(-1) ?? '{}') as { time?: string }).time ?? '');
}

/**
 * Agent SIGKILLed and started again: [/pods answers, every pod back with its old id] from the spawn, and every pod
 * back from the agent's own start (config loaded: node and its modules are up).
 */
async function agentKill(a: AgentProcess, ids: Map<string, string>): Promise<number[]> {
  await a.kill9();
  const t0 = performance.now();
  const started = a.start();
  const serving = await after(t0, async () => (await fetch(`${a.readOnlyUrl}/pods`)).ok);
  const back = await after(t0, () => sameIds(ids)(a));
  const backAt = Date.now() - (performance.now() - t0 - back);
  await started;
  return [serving, back, backAt - configLoadedAt(a)];
}

async function run(rt: RuntimeUnderTest): Promise<string[][]> {
  const cgroupRoot = `/nodelet-bench-rec-${process.pid}`;
  const a = await createAgentProcess({ nodeName: 'recovery', ...(compiledMain ? { compiledMain } : {}), ...(rt.endpoint ? { endpoint: rt.endpoint } : {}), args: ['--cgroup-root', cgroupRoot] });
  const rows: string[][] = [];
  try {
    await a.start();
    for (let i = 0; i < PODS; i++) writeFileSync(join(a.manifests, `r${i}.json`), benchPodManifest(`r${i}`, rt.image, 1));
    await waitUntil(`${PODS} pods running`, async () => (await runningIds(a)).size === PODS, 180_000).catch(async () => {
      // Measured on the pods that run (a pod stuck in ContainerCreating is the pod workers' problem, not recovery's).
      console.error(`warning: only ${(await runningIds(a)).size} of ${PODS} pods Running after 180 s; measuring those`);
    });
    const scenarios: Array<[string, string[], (a: AgentProcess, ids: Map<string, string>) => Promise<number[]>]> = [];
    scenarios.push(['agent SIGKILL', ['spawn → /pods answers', `spawn → ${PODS} pods same ids`, `config loaded → ${PODS} pods same ids`], agentKill]);
    if (!rt.endpoint) scenarios.push(['runtime SIGKILL', ['→ runtime restarted', '→ agent healthy, pods same ids'], runtimeKill]);
    else scenarios.push(['containerd restart', [`down ${OUTAGE_S} s, serving → agent healthy, pods same ids`], containerdRestart]);
    for (const [what, steps, fn] of scenarios) {
      const samples: number[][] = steps.map(() => []);
      const loads: number[] = [];
      for (let r = 0; r < REPS; r++) {
        await waitUntil('agent healthy before the run', () => healthy(a), 60_000);
        const ids = await runningIds(a);
        if (ids.size < PODS) console.error(`${rt.name}: ${ids.size} of ${PODS} pods Running before this repetition`);
        const got = await fn(a, ids);
        got.forEach((v, i) => samples[i]?.push(v));
        loads.push(loadavg()[0] ?? 0);
        console.error(`${rt.name} ${what} #${r + 1}: ${got.map((v) => fmtMs(v)).join(', ')}`);
      }
      steps.forEach((s, i) => rows.push([rt.name, what, s, fmtMs(percentile(samples[i] ?? [], 50)), fmtMs(percentile(samples[i] ?? [], 99)), `${samples[i]?.filter((v) => Number.isNaN(v)).length ?? 0}/${REPS}`, loads.map((l) => l.toFixed(2)).join(' ')]));
    }
  } finally {
    for (let i = 0; i < PODS; i++) rmSync(join(a.manifests, `r${i}.json`), { force: true });
    await waitUntil('pods removed', async () => (await pods(a)).length === 0, 120_000).catch((e: unknown) => console.error(String(e)));
    await a.dispose();
    // Processes of the stopped runtime may still be exiting: retry for a few seconds.
    for (let i = 0; i < 20 && removeCgroupRoot(cgroupRoot).length > 0; i++) await new Promise((r) => setTimeout(r, 250));
  }
  return rows;
}

const runtimes = selectRuntimes(process.argv);
const rows: string[][] = [];
try {
  for (const rt of runtimes) rows.push(...(await run(rt)));
} finally {
  for (const rt of runtimes) await rt.stop();
}
console.log(`recovery: ${PODS} pods, ${REPS} repetitions, ${cpus().length} cpus, agent ${compiledMain ? 'compiled (plain node)' : 'from sources (tsx)'}`);
console.log(table(['runtime', 'disruption', 'measured', 'p50', 'p99', 'timeouts', 'load 1m (each rep)'], rows));
