// bench/pleg-latency: a container's process is SIGKILLed behind the agent's back; how long until (a) GET /pods
// shows the container terminated, (b) a socket.io client receives the PLEG ContainerDied event and (c) the
// podStatus event showing it terminated (the status manager's publication, free of /pods polling cost). Each from
// two zeros: the kill, and the runtime's `finished_at` of the container (CRI ContainerStatus, read after the exit is
// seen) — #14 times exit → status from `finished_at`; the kill's figure adds the runtime's own detection. p50/p99,
// with the evented PLEG and with relist only (--evented-pleg=false, 1 s relist), on the embedded runtime and on
// containerd (root + containerd installed), in one run. `--runtime embedded|containerd|both`,
// `--pleg evented|relist|both` (default both), SAMPLES env (100 kills: the p99 of 100 is not their maximum). At most
// VICTIM_POOL (20) victims run at once: a killed victim is removed and the next one started, both waited for
// before the next kill (their work is not measured). Under load: `--pods N` keeps N more pods running
// (a `sleep` loop each) beside the victims, `--clients N` connects N socket.io clients (all listen; the socket.io
// figures pool every client's receipt); the load average is printed beside each row. The agent is the compiled
// daemon (dist/agent/main.js, built when stale; `--dist <dir>` a build elsewhere), as deployed.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Socket } from 'socket.io-client';
import { createCriClient, type CriClient } from '@nodelet/core/cri';
import { startStack, waitUntil, type Stack } from '../e2e/harness.ts';
import { agentSocket, benchPodManifest, compiledAgentMain, getJsonKeptAlive, removeBenchCgroupRoot, selectRuntimes, type RuntimeUnderTest } from './runtimes.ts';
import { fmtMs, percentile, table } from './stats.ts';

const SAMPLES = Number(process.env.SAMPLES ?? 100);
/** Victims running at once (#14: 90 more pods + 20 victims = 110). */
export const VICTIM_POOL = 20;
type Pod = { metadata: { name: string }; status?: { containerStatuses?: Array<{ name: string; containerID?: string; state?: { terminated?: unknown } }> } };

function manifest(name: string, image: string, mark: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'bench' },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'main', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', `: ${mark}; while true; do sleep 0.2; done`] }],
    },
  });
}

function pidsWith(mark: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(mark)) out.push(Number(d));
    } catch {
      // exited
    }
  }
  return out;
}

async function pods(stack: Stack): Promise<Pod[]> {
  return (await getJsonKeptAlive<{ items: Pod[] }>(`${stack.readOnlyUrl}/pods`)).items;
}

const socketClient = (stack: Stack): Promise<Socket> => agentSocket(stack.rootDir, stack.ports.kubelet);

interface PollRequest {
  url: string;
  /** The pod whose first container's exit is waited for. */
  name: string;
  timeoutMs: number;
}
interface PollAnswer {
  /** When the answer showing the exit was read (epoch ms from the poller; this thread's clock once returned). */
  at: number | undefined;
  containerId: string;
  /** The poller's own GC pauses while it watched (ms). */
  gcMs: number;
}

/** GET /pods watched from a thread of its own (pods-poller.mjs): when pod `name`'s exit first showed, on this clock. */
function podsPoller(): { watch: (req: PollRequest) => Promise<PollAnswer>; stop: () => Promise<number> } {
  const w = new Worker(new URL('./pods-poller.mjs', import.meta.url));
  // A failed poller fails the watch in flight (and every later one), never the process: the stack is still stopped.
  let failed: Error | undefined;
  let pending: ((e: Error) => void) | undefined;
  w.on('error', (e: Error) => {
    failed = e;
    pending?.(e);
  });
  return {
    watch: (req) =>
      new Promise((resolve, reject) => {
        if (failed) return reject(failed);
        pending = reject;
        w.once('message', (a: PollAnswer) => resolve({ ...a, at: a.at === undefined ? undefined : a.at - performance.timeOrigin }));
        w.postMessage(req);
      }),
    stop: () => w.terminate(),
  };
}

/** Polls every 5 ms (harness.waitUntil sleeps 200 ms: too coarse here); the time pred first held, or undefined. */
async function pollUntil(pred: () => Promise<boolean>, ms: number): Promise<number | undefined> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (await pred().catch(() => false)) return performance.now();
    await new Promise((r) => setTimeout(r, 5));
  }
  return undefined;
}

export interface Latencies {
  /** ms from the kill. */
  pods: number[];
  socket: number[];
  status: number[];
  /** ms from the runtime's finished_at of the container (#14's zero). */
  fromExit: { pods: number[]; socket: number[]; status: number[] };
  /** ms of the /pods poller's own GC pauses between the kill and the exit seen on /pods, per kill. */
  pollerGc: number[];
  load: number;
}

/** The runtime's finished_at of a container on this process's performance clock (ms), or undefined when unknown. */
/**
 * The container's finished_at (performance.now() time) from CRI ContainerStatus, asked until the runtime shows the
 * exit (up to 5 s): the agent may show an exit before the runtime's CRI does (containerd 1.6's lags its TaskExit).
 */
async function finishedAt(cri: CriClient, containerId: string): Promise<number | undefined> {
  if (!containerId) return undefined;
  let ns = 0;
  await pollUntil(async () => (ns = Number((await cri.containerStatus({ containerId })).status?.finishedAt ?? 0)) > 0, 5_000);
  return ns > 0 ? ns / 1e6 - performance.timeOrigin : undefined;
}

const running = (p: Pod | undefined) => Boolean(p?.status?.containerStatuses?.some((c) => 'running' in (c.state ?? {})));

/**
 * One (runtime, mode) run: `samples` pods, killed one at a time (ms from the kill to each place it is seen).
 * `agentMain`: the compiled agent to run (a build's agent/main.js); default the sources through tsx.
 */
export async function measure(
  rt: RuntimeUnderTest,
  evented: boolean,
  samples = SAMPLES,
  load: { pods?: number; clients?: number } = {},
  agentMain?: string,
): Promise<Latencies> {
  // A private cgroup root: agents on one host must not garbage-collect each other's pod cgroups.
  const cgroupRoot = `/nodelet-bench-${process.pid}`;
  const extra = [...(rt.endpoint ? ['--container-runtime-endpoint', rt.endpoint] : []), `--evented-pleg=${evented}`, '--cgroup-root', cgroupRoot];
  const stack = await startStack({ nodeName: 'lat', withConsole: false, extraAgentArgs: extra, ...(agentMain ? { agentMain } : {}) });
  const names = Array.from({ length: samples }, (_, i) => `victim-${i}`);
  const pool = Math.min(samples, VICTIM_POOL);
  const tag = `plat${Date.now().toString(36)}`;
  const out: Latencies = { pods: [], socket: [], status: [], fromExit: { pods: [], socket: [], status: [] }, pollerGc: [], load: 0 };
  const poller = podsPoller();
  // The runtime's finished_at is read over CRI: the embedded runtime listens in the agent's root dir.
  const cri = createCriClient(rt.endpoint ?? `unix://${join(stack.rootDir, 'runtime', 'nodelet.sock')}`);
  const extraPods = load.pods ?? 0;
  let sock: Socket | undefined;
  const others: Socket[] = [];
  try {
    for (let i = 0; i < extraPods; i++) writeFileSync(join(stack.manifests, `bg${i}.json`), benchPodManifest(`bg${i}`, rt.image, 5));
    const victim = (n: string) => writeFileSync(join(stack.manifests, `${n}.json`), manifest(n, rt.image, `${tag}-${n}-`));
    for (const n of names.slice(0, pool)) victim(n);
    await waitUntil('victims running', async () => (await pods(stack)).filter(running).length === pool + extraPods, 180_000 + extraPods * 6_000);
    sock = await socketClient(stack);
    const extraDied: Array<Map<string, number>> = [];
    for (let i = 1; i < (load.clients ?? 1); i++) {
      const c = await socketClient(stack);
      const m = new Map<string, number>();
      c.on('nodelet:event', (e: { type: string; pleg?: string; pod?: { name: string } }) => {
        if (e.pod && e.type === 'pleg' && e.pleg === 'ContainerDied' && !m.has(e.pod.name)) m.set(e.pod.name, performance.now());
      });
      others.push(c);
      extraDied.push(m);
    }
    const died = new Map<string, number>();
    const shown = new Map<string, number>();
    sock.on('nodelet:event', (e: { type: string; pleg?: string; pod?: { name: string }; containers?: Array<{ state?: string }> }) => {
      if (!e.pod) return;
      if (e.type === 'pleg' && e.pleg === 'ContainerDied' && !died.has(e.pod.name)) died.set(e.pod.name, performance.now());
      if (e.type === 'podStatus' && e.containers?.[0]?.state === 'terminated' && !shown.has(e.pod.name)) shown.set(e.pod.name, performance.now());
    });
    await new Promise((r) => setTimeout(r, 1500));
    for (const [i, n] of names.entries()) {
      const full = `${n}-${stack.nodeName}`;
      const pids = pidsWith(`${tag}-${n}-`);
      const t0 = performance.now();
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // a transient fork of the shell (same cmdline) that already exited
        }
      }
      const { at: seen, containerId, gcMs } = await poller.watch({ url: `${stack.readOnlyUrl}/pods`, name: full, timeoutMs: 30_000 });
      await waitUntil(`${n} ContainerDied and podStatus on socket.io`, () => died.has(full) && shown.has(full), 5_000).catch(() => {});
      const exitAt = await finishedAt(cri, containerId);
      const record = (into: keyof Latencies['fromExit'], at: number | undefined) => {
        if (at === undefined) return;
        out[into].push(at - t0);
        if (exitAt !== undefined) out.fromExit[into].push(at - exitAt);
      };
      record('pods', seen);
      if (seen !== undefined) out.pollerGc.push(gcMs);
      for (const m of [died, ...extraDied]) record('socket', m.get(full));
      record('status', shown.get(full));
      // The victim goes and the next one starts (≤ VICTIM_POOL at once), both done before the next kill.
      rmSync(join(stack.manifests, `${n}.json`), { force: true });
      const next = names[i + pool];
      if (next) victim(next);
      await waitUntil(`${n} replaced`, async () => {
        const ps = await pods(stack);
        return !ps.some((p) => p.metadata.name === full) && (!next || running(ps.find((p) => p.metadata.name === `${next}-${stack.nodeName}`)));
      }, 60_000).catch(() => {});
      // Spread the kills over the relist phase (so relist-only latency is sampled fairly).
      await new Promise((r) => setTimeout(r, 600 + Math.random() * 1000));
    }
    out.load = loadavg()[0] ?? 0;
  } finally {
    await poller.stop();
    cri.close();
    sock?.disconnect();
    for (const c of others) c.disconnect();
    for (let i = 0; i < extraPods; i++) rmSync(join(stack.manifests, `bg${i}.json`), { force: true });
    for (const n of names) rmSync(join(stack.manifests, `${n}.json`), { force: true });
    await waitUntil('victims removed', async () => (await pods(stack)).length === 0, 60_000 + extraPods * 1_000).catch(() => {});
    await stack.stop();
    removeBenchCgroupRoot(cgroupRoot);
  }
  return out;
}

const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');

async function main(): Promise<void> {
  const runtimes = selectRuntimes(process.argv);
  const which = process.argv.includes('--pleg') ? process.argv[process.argv.indexOf('--pleg') + 1] : 'both';
  const modes = which === 'evented' ? [true] : which === 'relist' ? [false] : [true, false];
  const flag = (name: string) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : undefined);
  const load = { pods: flag('--pods') ?? 0, clients: flag('--clients') ?? 1 };
  const distArg = process.argv.includes('--dist') ? process.argv[process.argv.indexOf('--dist') + 1] : undefined;
  const agentMain = distArg ? join(resolve(distArg), 'agent/main.js') : compiledAgentMain();
  const rows: string[][] = [];
  const gcRows: Array<[string, string]> = [];
  try {
    for (const rt of runtimes) {
      for (const evented of modes) {
        const r = await measure(rt, evented, SAMPLES, load, agentMain);
        const mode = evented ? 'evented' : 'relist 1 s';
        const l = r.load.toFixed(2);
        gcRows.push([`${rt.name} ${mode}`, [50, 99, 100].map((p) => fmtMs(percentile(r.pollerGc, p))).join(' / ')]);
        const seenOn: Array<[string, 'pods' | 'socket' | 'status']> = [['/pods', 'pods'], [`socket.io ContainerDied (${load.clients} clients)`, 'socket'], ['socket.io podStatus', 'status']];
        for (const [label, k] of seenOn) {
          const e = r.fromExit[k];
          rows.push([rt.name, mode, label, String(e.length), fmtMs(percentile(e, 50)), fmtMs(percentile(e, 99)), fmtMs(percentile(r[k], 50)), fmtMs(percentile(r[k], 99)), l]);
        }
      }
    }
  } finally {
    // Every runtime started above is stopped, even when an earlier one failed.
    for (const rt of runtimes) await rt.stop().catch((e: unknown) => console.error(`stopping ${rt.name}: ${String(e)}`));
  }
  console.log(`\ncontainer exit (the runtime's finished_at; and the SIGKILL) → terminated on GET /pods (polled every 5 ms from a thread of its own); → PLEG ContainerDied and → podStatus (terminated) on a socket.io client; ${load.pods} more pods running, ${load.clients} socket.io clients; agent ${agentMain} (plain node)`);
  console.log(`load average before / after: ${loadBefore} / ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}\n`);
  console.log(table(['runtime', 'PLEG', 'seen on', 'n', 'from exit p50', 'p99', 'from kill p50', 'p99', 'load 1m'], rows));
  for (const [name, gc] of gcRows) console.log(`${name}: the /pods poller's own GC pauses between a kill and /pods showing it, p50 / p99 / max: ${gc}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
