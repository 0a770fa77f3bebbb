/**
 * Prints RunPodSandbox / CreateContainer / StartContainer / teardown latencies of the embedded runtime
 * (host image, `sleep`), N pods one after another. Not a test: a measurement to compare with containerd.md.
 * Run: node --import tsx packages/runtime/src/testing/measure-startup.ts [N]
 */
import { join } from 'node:path';
import { containerConfig, sandboxConfig, startInProcess } from './harness.ts';

const n = Number(process.argv[2] ?? 10);
const h = await startInProcess();
const rows: Record<string, number[]> = { RunPodSandbox: [], CreateContainer: [], StartContainer: [], 'pod total': [], teardown: [] };
const time = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const r = await fn();
  rows[key]!.push(performance.now() - t);
  return r;
};
try {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const config = sandboxConfig(`m${i}`, join(h.dir, 'logs'));
    const { podSandboxId } = await time('RunPodSandbox', () => h.rt.RunPodSandbox({ config }));
    const { containerId } = await time('CreateContainer', () =>
      h.rt.CreateContainer({ podSandboxId, config: containerConfig('c', ['sleep', '1000']), sandboxConfig: config }));
    await time('StartContainer', () => h.rt.StartContainer({ containerId }));
    rows['pod total']!.push(performance.now() - t0);
    await time('teardown', async () => {
      await h.rt.StopPodSandbox({ podSandboxId });
      await h.rt.RemovePodSandbox({ podSandboxId });
    });
  }
} finally {
  await h.cleanup();
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
console.log(`| step (${n} pods, sequential) | min | median | p90 | max |\n|---|---|---|---|---|`);
for (const [k, xs] of Object.entries(rows)) {
  console.log(`| ${k} | ${pct(xs, 0).toFixed(1)} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 90).toFixed(1)} | ${pct(xs, 100).toFixed(1)} |`);
}

// The same pods all at once (RunPodSandbox → StartContainer per pod, concurrently).
const h2 = await startInProcess();
try {
  const t0 = performance.now();
  const per = await Promise.all(Array.from({ length: n }, async (_, i) => {
    const t = performance.now();
    const config = sandboxConfig(`p${i}`, join(h2.dir, 'logs'), { linux: { cgroupParent: '/nodelet-measure/shared' } });
    const { podSandboxId } = await h2.rt.RunPodSandbox({ config });
    const { containerId } = await h2.rt.CreateContainer({ podSandboxId, config: containerConfig('c', ['sleep', '1000']), sandboxConfig: config });
    await h2.rt.StartContainer({ containerId });
    return performance.now() - t;
  }));
  const total = performance.now() - t0;
  const stats = (await h2.rt.ListContainerStats({})).stats as Array<{ cpu: unknown }>;
  console.log(`\n${n} pods at once: total ${total.toFixed(0)} ms; per pod min/median/max ${pct(per, 0).toFixed(0)}/${pct(per, 50).toFixed(0)}/${pct(per, 100).toFixed(0)} ms; ${stats.filter((s) => s.cpu).length}/${n} with cgroup stats`);
  for (const p of (await h2.rt.ListPodSandbox({})).items as Array<{ id: string }>) await h2.rt.RemovePodSandbox({ podSandboxId: p.id });
} finally {
  await h2.cleanup();
}
