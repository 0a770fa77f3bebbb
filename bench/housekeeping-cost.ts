// bench/housekeeping-cost (`node --max-semi-space-size=256 --expose-gc --import tsx bench/housekeeping-cost.ts`, as
// root on a cgroup v1 host): what the stats
// housekeeping costs in this process, load-independent where it can be: (1) timer wake-ups a second with 230 tracked
// containers and the kubelet's jitter (the real Housekeeper on a fake clock, 10 simulated minutes); (2) bytes allocated
// (V8's heap growth over a loop that no garbage collection interrupts: a 256 MiB young generation, the gc entries
// counted) and CPU (process.cpuUsage) per sample and per round of 230 samples of real cgroups: 100
// empty cgroups made under <controller>/h1-bench (removed after), one holding a sleeping child with the pod's network
// counters read from its /proc/<pid>/net/dev, and the node. The load average is printed beside the CPU.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { createNodeHostFs } from '@nodelet/core/cm';
import { createCgroupSampler, createCgroupStatsReader, detectCgroupLayout, Housekeeper, type TrackedContainer } from '@nodelet/core/stats';
import { FakeClock } from '@nodelet/core/testing';
import { realClock } from '@nodelet/core/util';

const ROUND = 230;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const CONTROLLERS = ['cpu', 'cpuacct', 'memory', 'pids'];
const PARENT = '/h1-bench';

async function wakeups(): Promise<string> {
  let wakes = 0;
  let maxPending = 0;
  const clock = new FakeClock();
  const counting = Object.assign(Object.create(clock) as FakeClock, {
    setTimeout: (fn: () => void, ms: number) => clock.setTimeout(() => (wakes++, fn()), ms),
  });
  let seed = 14;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const hk = new Housekeeper({ clock: counting, sampler: async () => ({ time: clock.now() }), logger: { child: () => undefined } as never, random }, { jitterFactor: 1 });
  for (let i = 0; i < ROUND; i++) hk.register({ key: `/c${i}`, cgroup: `/c${i}` });
  hk.start();
  await clock.step(60_000); // the first samples all come at once at start; the steady state after
  const w0 = wakes;
  for (let s = 0; s < 600; s++) {
    await clock.step(1_000);
    maxPending = Math.max(maxPending, clock.pending());
  }
  hk.stop();
  return `timer wake-ups: ${((wakes - w0) / 600).toFixed(2)}/s with ${ROUND} containers (10 simulated minutes after the first), timers pending at most ${maxPending}`;
}

function makeCgroups(n: number): string[] {
  const names: string[] = [];
  for (const c of CONTROLLERS) if (!existsSync(`/sys/fs/cgroup/${c}${PARENT}`)) mkdirSync(`/sys/fs/cgroup/${c}${PARENT}`);
  for (let i = 0; i < n; i++) {
    const name = `${PARENT}/c${i}`;
    for (const c of CONTROLLERS) if (!existsSync(`/sys/fs/cgroup/${c}${name}`)) mkdirSync(`/sys/fs/cgroup/${c}${name}`);
    names.push(name);
  }
  return names;
}

function removeCgroups(names: string[]): void {
  for (const c of CONTROLLERS) {
    for (const name of names) if (existsSync(`/sys/fs/cgroup/${c}${name}`)) rmdirSync(`/sys/fs/cgroup/${c}${name}`);
    if (existsSync(`/sys/fs/cgroup/${c}${PARENT}`)) rmdirSync(`/sys/fs/cgroup/${c}${PARENT}`);
  }
}

let gcs = 0;
new PerformanceObserver((l) => (gcs += l.getEntries().length)).observe({ entryTypes: ['gc'] });
/** Heap used after a full collection before the measured loop: what the loop allocates is the growth after it. */
let base = 0;
function allocated(): number {
  const used = getHeapStatistics().used_heap_size;
  return used - base;
}
async function collect(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await new Promise((r) => setTimeout(r, 100)); // concurrent sweeping done
  gc?.();
  await new Promise((r) => setTimeout(r, 100));
  base = getHeapStatistics().used_heap_size;
  gcs = 0;
}

async function sampling(): Promise<string[]> {
  const fs = createNodeHostFs();
  const l = await detectCgroupLayout(fs);
  if (!l.ok || l.layout.driver !== 'v1') return ['sampling: needs a cgroup v1 host'];
  const names = makeCgroups(100);
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  try {
    for (const c of CONTROLLERS) writeFileSync(`/sys/fs/cgroup/${c}${PARENT}/c0/cgroup.procs`, String(child.pid));
    const sampler = createCgroupSampler({ reader: createCgroupStatsReader(fs, l.layout), fs, clock: realClock });
    const targets: TrackedContainer[] = [{ key: '/', cgroup: '/', network: true }];
    for (let i = 0; targets.length < ROUND; i++) {
      const name = names[i % names.length] as string;
      // Half are "pods" (their network counters read), as a pod and its container each have a cgroup.
      targets.push({ key: `${name}#${i}`, cgroup: name, network: i % 2 === 0 && name === names[0] });
    }
    const round = async () => {
      for (const t of targets) if (!(await sampler(t))) throw new Error(`no sample of ${t.cgroup}`);
    };
    for (let i = 0; i < 5; i++) await round(); // warm: code optimized, the netns pid kept
    const pod = targets[1] as TrackedContainer;
    const one = async (t: TrackedContainer, n: number) => {
      await collect();
      const b0 = allocated();
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await sampler(t);
      const c = process.cpuUsage(c0);
      const bytes = (allocated() - b0) / n;
      await new Promise((r) => setImmediate(r));
      if (gcs > 0) throw new Error(`${gcs} garbage collections during the loop: run with --max-semi-space-size=256 --expose-gc`);
      return { bytes, us: (c.user + c.system) / n };
    };
    const empty = await one(targets[2] as TrackedContainer, 1000);
    const withNet = await one(pod, 1000);
    const node = await one(targets[0] as TrackedContainer, 1000);
    await collect();
    const b0 = allocated();
    const c0 = process.cpuUsage();
    for (let i = 0; i < ROUNDS; i++) await round();
    const c = process.cpuUsage(c0);
    const perRound = (allocated() - b0) / ROUNDS;
    if (gcs > 0) return [`${gcs} garbage collections during the loops: run with --max-semi-space-size=256 --expose-gc`];
    const f = (x: number) => x.toFixed(0);
    return [
      `per sample, a container cgroup (cpu, memory, processes): ${f(empty.bytes)} B allocated, ${f(empty.us)} µs CPU`,
      `per sample, a pod cgroup with network (+ /proc/<pid>/net/dev): ${f(withNet.bytes)} B, ${f(withNet.us)} µs`,
      `per sample, the node (/, network of /proc/self): ${f(node.bytes)} B, ${f(node.us)} µs`,
      `per round of ${ROUND} samples: ${(perRound / 1024).toFixed(1)} KiB allocated, ${((c.user + c.system) / ROUNDS / 1000).toFixed(2)} ms CPU (${ROUNDS} rounds)`,
    ];
  } finally {
    child.kill();
    await new Promise((r) => child.once('exit', r));
    removeCgroups(names);
  }
}

const lines = [await wakeups(), ...(await sampling())];
console.log([...lines, `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}, node ${process.version}`].join('\n'));
