// bench/pod-start: manifest written → pod Running on /pods, for 1 pod (×SINGLES) and bursts (30 and 110 pods at
// once), beside the raw CRI floor (RunPodSandbox + CreateContainer + StartContainer made directly on the same
// runtime in the same run). The agent is the compiled daemon (`npm run build`'s dist/agent/main.js, built here
// when stale), as `npm start` runs it. Runs on the embedded runtime, and on containerd too when run as root with
// containerd installed (`--runtime embedded|containerd|both`, default both when possible).
// `--singles N` and `--bursts 30,110` pick the sizes (CI's smoke: 1 and 3); `--dist <dir>` runs a build made with
// `node scripts/build.mjs --out <dir>` instead of dist/ (an A/B of two builds in one sitting).
// The agent's side (its starts timed, its pods removed): agent-start.ts.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCriClient, type CriClient } from '@nodelet/core/cri';
import { createAgentProcess } from '../tests/conformance/agent-process.ts';
import { agentClean, agentStart, agentStartPushed } from './agent-start.ts';
import { captureTemplate, instantiate, type FloorTemplate } from './floor-config.ts';
import { operationDurations, perStart } from './runtime-ops.ts';
import { agentSocket, compiledAgentMain, machineLine, removeBenchCgroupRoot, selectRuntimes, type RuntimeUnderTest } from './runtimes.ts';
import { fmtMs, percentile, slowest, table } from './stats.ts';

type SandboxConfig = NonNullable<Parameters<CriClient['runPodSandbox']>[0]['config']>;
type ContainerConfig = NonNullable<Parameters<CriClient['createContainer']>[0]['config']>;

/** The floor's requests: the agent's own (floor-config.ts), with the cgroup root the floor's pods go under. */
interface Floor {
  template: FloorTemplate;
  cgroupRoot: string;
}

export interface StartSizes {
  /** Single-pod starts (each measured alone). */
  singles: number;
  /** Burst sizes: that many manifests written at once; the figure is the time until all are Running. */
  bursts: number[];
  /**
   * Start one raw pod first and drop it (first exec of the code paths, image unpack); default true. The agent always
   * starts one first: its requests become the floor's (floor-config.ts).
   */
  warm?: boolean;
  /** The compiled agent to run (`--dist <dir>`: that build's agent/main.js); default dist/, built when stale. */
  agentMain?: string;
}

/** One measured scenario: agent and raw-CRI times (ms, per pod) and the 1-min load average while it ran. */
export interface StartRow {
  label: string;
  kind: 'single' | 'burst';
  agent: number[];
  raw: number[];
  load: number;
  /** Why the scenario did not finish (its figures are then missing). */
  error?: string;
}

/**
 * The raw CRI floor: the same three calls the agent makes, straight at the runtime. With `floor` (the agent's own
 * requests, floor-config.ts) each pod's requests are the agent's under a new name, prepared before the clock starts;
 * without, a minimal pod (no cgroup parent, DNS, mounts or security context: lighter work for the runtime).
 */
async function criStart(cri: CriClient, logDir: string, names: string[], image: string, floor?: Floor): Promise<{ ms: number[]; sandboxes: string[] }> {
  const requests = names.map((name) => {
    const uid = `uid-${name}-${Date.now()}`;
    if (floor) {
      const r = instantiate(floor.template, name, uid, logDir, floor.cgroupRoot);
      return { sandbox: r.sandbox as unknown as SandboxConfig, container: r.container as unknown as ContainerConfig };
    }
    const sandbox = {
      metadata: { name, namespace: 'bench-raw', uid, attempt: 0 },
      hostname: name,
      logDirectory: join(logDir, name),
      linux: {},
    };
    mkdirSync(sandbox.logDirectory, { recursive: true });
    const container = {
      metadata: { name: 'main', attempt: 0 },
      image: { image },
      command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'],
      envs: [{ key: 'PATH', value: Buffer.from('/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin') }],
      logPath: 'main/0.log',
    };
    return { sandbox, container };
  });
  const t0 = performance.now();
  const results = await Promise.all(
    requests.map(async ({ sandbox, container }) => {
      const { podSandboxId } = await cri.runPodSandbox({ config: sandbox });
      const { containerId } = await cri.createContainer({ podSandboxId, config: container, sandboxConfig: sandbox });
      await cri.startContainer({ containerId });
      return { ms: performance.now() - t0, sandbox: podSandboxId };
    }),
  );
  return { ms: results.map((r) => r.ms), sandboxes: results.map((r) => r.sandbox) };
}

async function criClean(cri: CriClient, sandboxes: string[]): Promise<void> {
  for (const id of sandboxes) {
    await cri.stopPodSandbox({ podSandboxId: id });
    await cri.removePodSandbox({ podSandboxId: id });
  }
}

/** Runs every scenario of `sizes` on `rt` (agent first, then the raw floor, each cleaned before the next). */
export async function benchPodStart(rt: RuntimeUnderTest, sizes: StartSizes): Promise<StartRow[]> {
  // A private cgroup root: agents on one host must not garbage-collect each other's pod cgroups.
  const cgroupRoot = `/nodelet-bench-${process.pid}`;
  const agent = await createAgentProcess({
    nodeName: 'bench',
    compiledMain: sizes.agentMain ?? compiledAgentMain(),
    ...(rt.endpoint ? { endpoint: rt.endpoint } : {}),
    args: ['--cgroup-root', cgroupRoot],
  });
  const logDir = mkdtempSync(join(tmpdir(), 'nodelet-bench-logs-'));
  // The floor's pod cgroups: beside the agent's root, not under it (the agent removes pod cgroups it does not know).
  const floorCgroupRoot = `/nodelet-bench-floor-${process.pid}`;
  let floor: Floor | undefined;
  let cri: CriClient | undefined;
  const rows: StartRow[] = [];
  try {
    await agent.start();
    cri = createCriClient(agent.endpoint);
    const c = cri;
    // Warm both paths once (first exec of the runtime's code paths, image unpack).
    // The agent's requests for its warm-up pod become the floor's (read while the pod runs).
    await agentStart(agent, ['warm'], rt.image);
    const template = await captureTemplate(c, `warm-${agent.nodeName}`, agent.rootDir, logDir);
    await agentClean(agent, c, ['warm']);
    if (typeof template === 'string') console.error(`${rt.name}: the floor makes a minimal pod (${template})`);
    else floor = { template, cgroupRoot: floorCgroupRoot };
    if (sizes.warm !== false) await criStart(c, logDir, ['warm-raw'], rt.image, floor).then((r) => criClean(c, r.sandboxes));

    // A scenario that fails (a CRI deadline on an overloaded machine) is a row saying so; the runtime may hold
    // its leftovers, so the scenarios after it are not run.
    const scenario = async (row: StartRow, run: () => Promise<void>): Promise<boolean> => {
      try {
        await run();
      } catch (e) {
        row.error = String(e).split('\n')[0]?.slice(0, 160);
        console.error(`${rt.name} ${row.label}: ${String(e)}\n--- agent log (tail) ---\n${agent.logTail()}`);
      }
      row.load = loadavg()[0] ?? 0;
      rows.push(row);
      return row.error === undefined;
    };
    const single: StartRow = { label: '1 pod', kind: 'single', agent: [], raw: [], load: 0 };
    // The agent's own CRI time per single start (its kubelet_runtime_operations_duration_seconds, summed over the
    // starts and their cleanups): what of the agent's figure the runtime spent, beside the floor's.
    const durations = async () => operationDurations(await (await fetch(`${agent.readOnlyUrl}/metrics`)).text());
    // Singles and bursts are timed by the agent's push (agentStartPushed), confirmed by one GET of /pods.
    // Only the bench pods' podStatus events: the instrument costs the measured agent as little as it can.
    const sock = await agentSocket(agent.rootDir, agent.ports.kubelet, { namespace: 'bench', types: ['podStatus'] });
    let ok = sizes.singles === 0 || await scenario(single, async () => {
      const before = await durations();
      for (let i = 0; i < sizes.singles; i++) {
        single.agent.push(...(await agentStartPushed(agent, sock, [`one-${i}`], rt.image)));
        await agentClean(agent, c, [`one-${i}`]);
        const raw = await criStart(c, logDir, [`raw-one-${i}`], rt.image, floor);
        single.raw.push(...raw.ms);
        await criClean(c, raw.sandboxes);
      }
      // Which starts make the p99 (of 100 singles, the second slowest), beside the floor's start made right after each.
      console.log(`${rt.name}: the slowest single starts (#: agent ms / the floor's next start ms) ${slowest(single.agent, 3).map(([i, ms]) => `#${i}: ${ms.toFixed(0)} / ${(single.raw[i] ?? NaN).toFixed(0)}`).join(', ')}`);
      console.log(`\n${rt.name}: the agent's CRI calls per single start (start and removal, ${sizes.singles} pods)\n${table(['operation', 'calls', 'ms'], perStart(before, await durations(), sizes.singles))}`);
    });
    for (const n of sizes.bursts) {
      if (!ok) break;
      const names = Array.from({ length: n }, (_, i) => `burst${n}-${i}`);
      const row: StartRow = { label: `${n} at once`, kind: 'burst', agent: [], raw: [], load: 0 };
      ok = await scenario(row, async () => {
        row.agent = await agentStartPushed(agent, sock, names, rt.image);
        await agentClean(agent, c, names);
        const raw = await criStart(c, logDir, names.map((x) => `raw-${x}`), rt.image, floor);
        row.raw = raw.ms;
        await criClean(c, raw.sandboxes);
      });
    }
    sock.disconnect();
  } catch (e) {
    throw new Error(`${String(e)}\n--- agent log (tail) ---\n${agent.logTail()}`);
  } finally {
    cri?.close();
    await agent.dispose().catch((e: unknown) => console.error(`agent cleanup: ${String(e)}`));
    removeBenchCgroupRoot(cgroupRoot);
    removeBenchCgroupRoot(floorCgroupRoot);
    rmSync(logDir, { recursive: true, force: true });
  }
  return rows;
}

/** Table rows: a single start as p50 and p99; a burst as the time until all are Running (its max). */
export function startTableRows(runtime: string, rows: StartRow[]): string[][] {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const out: string[][] = [];
  for (const r of rows) {
    const load = r.load.toFixed(1);
    if (r.error !== undefined) {
      out.push([runtime, r.label, 'n/a', `failed: ${r.error}`, '', load]);
    } else if (r.kind === 'single') {
      for (const p of [50, 99]) {
        const a = percentile(r.agent, p);
        const b = percentile(r.raw, p);
        out.push([runtime, `${r.label} (×${r.agent.length}) p${p}`, fmtMs(b), fmtMs(a), ratio(a, b), load]);
      }
    } else {
      const a = Math.max(...r.agent);
      const b = Math.max(...r.raw);
      out.push([runtime, `${r.label}, all Running`, fmtMs(b), fmtMs(a), ratio(a, b), load]);
    }
  }
  return out;
}

export const START_HEADER = ['runtime', 'measure', 'raw CRI floor', 'Nodelet', 'ratio', 'load 1m'];

function argOf(argv: string[], name: string): string | undefined {
  return argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined;
}

export function sizesFromArgv(argv: string[], defaults: StartSizes = { singles: 10, bursts: [30, 110] }): StartSizes {
  const singles = argOf(argv, '--singles');
  const bursts = argOf(argv, '--bursts');
  const dist = argOf(argv, '--dist');
  return {
    ...defaults,
    ...(dist !== undefined ? { agentMain: compiledAgentMain(dist) } : {}),
    singles: singles === undefined ? defaults.singles : Number(singles),
    bursts: bursts === undefined ? defaults.bursts : bursts.split(',').filter(Boolean).map(Number),
  };
}

async function main(): Promise<void> {
  const sizes = sizesFromArgv(process.argv);
  const runtimes = selectRuntimes(process.argv);
  const rows: string[][] = [];
  try {
    for (const rt of runtimes) {
      rows.push(...startTableRows(rt.name, await benchPodStart(rt, sizes)));
      console.error(table(START_HEADER, rows)); // so far (a later runtime's failure keeps these)
    }
  } finally {
    // Every runtime started above is stopped, even when an earlier one failed.
    for (const rt of runtimes) await rt.stop().catch((e: unknown) => console.error(`stopping ${rt.name}: ${String(e)}`));
  }
  console.log(`\npod start: manifest written → Running on /pods (Nodelet, compiled: ${sizes.agentMain ?? 'dist/agent/main.js'}) vs RunPodSandbox+Create+Start (raw CRI)`);
  console.log(`${machineLine()}\n`);
  console.log(table(START_HEADER, rows));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
