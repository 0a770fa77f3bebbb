// bench/pod-start: manifest written → pod Running on /pods, for 1 pod (×5) and a 30-pod burst, beside the raw
// CRI floor (RunPodSandbox + CreateContainer + StartContainer made directly on the same runtime in the same run).
// Runs on the embedded runtime, and on containerd too when run as root with containerd installed
// (`--runtime embedded|containerd|both`, default both when possible).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createCriClient, type CriClient } from '@nodelet/core/cri';
import { startStack, waitUntil, type Stack } from '../e2e/harness.ts';
import { benchPodManifest, selectRuntimes, type RuntimeUnderTest } from './runtimes.ts';
import { fmtMs, percentile, table } from './stats.ts';
import { removeCgroupRoot } from '../tests/conformance/cgroups.ts';
import { POD_NAMESPACE_LABEL } from '@nodelet/core/container';

const SINGLE_RUNS = 5;
const BURST = Number(process.env.BENCH_BURST ?? 30);

const manifest = (name: string, image: string): string => benchPodManifest(name, image, 1);

async function podPhases(stack: Stack): Promise<Map<string, string>> {
  const r = await fetch(`${stack.readOnlyUrl}/pods`);
  const body = (await r.json()) as { items: Array<{ metadata: { name: string }; status?: { phase?: string } }> };
  return new Map(body.items.map((p) => [p.metadata.name, p.status?.phase ?? '']));
}

/** Writes manifests for `names` at once and returns each pod's ms until Running on /pods. */
async function agentStart(stack: Stack, names: string[], image: string): Promise<number[]> {
  const t0 = performance.now();
  for (const n of names) writeFileSync(join(stack.manifests, `${n}.json`), manifest(n, image));
  const done = new Map<string, number>();
  const full = (n: string) => `${n}-${stack.nodeName}`;
  await waitUntil(`${names.length} pods Running`, async () => {
    const phases = await podPhases(stack);
    const now = performance.now() - t0;
    for (const n of names) if (!done.has(n) && phases.get(full(n)) === 'Running') done.set(n, now);
    return done.size === names.length;
  }, 180_000);
  return names.map((n) => done.get(n) as number);
}

/**
 * Removes the pods and waits until the runtime has stopped them too: a pod leaves /pods as soon as its
 * manifest goes, while the agent still stops its container and sandbox (network teardown included). A raw
 * CRI run started before that would race the teardown and measure it (containerd: 30 CNI DELs beside the
 * raw burst's 30 CNI ADDs).
 */
async function agentClean(stack: Stack, cri: CriClient, names: string[]): Promise<void> {
  for (const n of names) rmSync(join(stack.manifests, `${n}.json`), { force: true });
  await waitUntil('pods removed', async () => {
    const phases = await podPhases(stack);
    return names.every((n) => !phases.has(`${n}-${stack.nodeName}`));
  }, 180_000);
  const ns = { [POD_NAMESPACE_LABEL]: 'bench' };
  await waitUntil('runtime stopped the pods', async () => {
    const [sb, cs] = await Promise.all([
      cri.listPodSandbox({ filter: { state: { state: 'SANDBOX_READY' }, labelSelector: ns } }),
      cri.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' }, labelSelector: ns } }),
    ]);
    return sb.items.length === 0 && cs.containers.length === 0;
  }, 180_000);
}

/** The raw CRI floor: the same three calls the agent makes, straight at the runtime. */
async function criStart(cri: CriClient, logDir: string, names: string[], image: string): Promise<{ ms: number[]; sandboxes: string[] }> {
  const t0 = performance.now();
  const results = await Promise.all(
    names.map(async (name) => {
      const uid = `uid-${name}-${Date.now()}`;
      const config = {
        metadata: { name, namespace: 'bench-raw', uid, attempt: 0 },
        hostname: name,
        logDirectory: join(logDir, name),
        linux: {},
      };
      mkdirSync(config.logDirectory, { recursive: true });
      const { podSandboxId } = await cri.runPodSandbox({ config });
      const { containerId } = await cri.createContainer({
        podSandboxId,
        config: {
          metadata: { name: 'main', attempt: 0 },
          image: { image },
          command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'],
          envs: [{ key: 'PATH', value: Buffer.from('/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin') }],
          logPath: 'main/0.log',
        },
        sandboxConfig: config,
      });
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

async function benchRuntime(rt: RuntimeUnderTest): Promise<string[][]> {
  // A private cgroup root: agents on one host must not garbage-collect each other's pod cgroups.
  const cgroupRoot = `/nodelet-bench-${process.pid}`;
  const extra = [...(rt.endpoint ? ['--container-runtime-endpoint', rt.endpoint] : []), '--cgroup-root', cgroupRoot];
  const stack = await startStack({ nodeName: 'bench', withConsole: false, extraAgentArgs: extra });
  const endpoint = rt.endpoint ?? `unix://${join(stack.rootDir, 'runtime', 'nodelet.sock')}`;
  const cri = createCriClient(endpoint);
  const logDir = mkdtempSync(join(tmpdir(), 'nodelet-bench-logs-'));
  const rows: string[][] = [];
  try {
    // Warm both paths once (first exec of the runtime's code paths, image unpack).
    await agentStart(stack, ['warm'], rt.image).then(() => agentClean(stack, cri, ['warm']));
    await criStart(cri, logDir, ['warm-raw'], rt.image).then((r) => criClean(cri, r.sandboxes));

    const agentSingle: number[] = [];
    const criSingle: number[] = [];
    for (let i = 0; i < SINGLE_RUNS; i++) {
      agentSingle.push(...(await agentStart(stack, [`one-${i}`], rt.image)));
      await agentClean(stack, cri, [`one-${i}`]);
      const raw = await criStart(cri, logDir, [`raw-one-${i}`], rt.image);
      criSingle.push(...raw.ms);
      await criClean(cri, raw.sandboxes);
    }
    const burstNames = Array.from({ length: BURST }, (_, i) => `burst-${i}`);
    const agentBurst = await agentStart(stack, burstNames, rt.image);
    await agentClean(stack, cri, burstNames);
    const rawBurst = await criStart(cri, logDir, burstNames.map((n) => `raw-${n}`), rt.image);
    await criClean(cri, rawBurst.sandboxes);

    const row = (label: string, agent: number[], raw: number[]) => [
      rt.name,
      label,
      fmtMs(percentile(agent, 50)),
      fmtMs(percentile(agent, 99)),
      fmtMs(percentile(raw, 50)),
      fmtMs(percentile(raw, 99)),
      `${(percentile(agent, 50) / percentile(raw, 50)).toFixed(1)}×`,
      `${(percentile(agent, 99) / percentile(raw, 99)).toFixed(1)}×`,
    ];
    rows.push(row(`1 pod ×${SINGLE_RUNS}`, agentSingle, criSingle));
    rows.push(row(`${BURST}-pod burst`, agentBurst, rawBurst.ms));
  } finally {
    cri.close();
    await stack.stop();
    removeCgroupRoot(cgroupRoot);
    rmSync(logDir, { recursive: true, force: true });
  }
  return rows;
}

async function main(): Promise<void> {
  const runtimes = selectRuntimes(process.argv);
  const rows: string[][] = [];
  try {
    for (const rt of runtimes) rows.push(...(await benchRuntime(rt)));
  } finally {
    // Every runtime started above is stopped, even when an earlier one failed.
    for (const rt of runtimes) await rt.stop().catch((e: unknown) => console.error(`stopping ${rt.name}: ${String(e)}`));
  }
  const cpuModel = cpus()[0]?.model ?? 'unknown cpu';
  console.log(`\npod start: manifest written → Running on /pods (agent) vs RunPodSandbox+Create+Start (raw CRI)`);
  console.log(`machine: ${cpus().length} × ${cpuModel}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}\n`);
  console.log(
    table(['runtime', 'scenario', 'agent p50', 'agent p99', 'CRI p50', 'CRI p99', 'ratio p50', 'ratio p99'], rows),
  );
  void readFileSync;
}

await main();
