// bench/cadvisor-render (`node --import tsx bench/cadvisor-render.ts`): the CPU of /metrics/cadvisor's render + gzip
// in this process (process.cpuUsage, no agent, no HTTP), as a Prometheus scrape asks it, with BENCH_CONTAINERS
// synthetic containers (default 220: 110 pods, a pod cgroup and a container each): the first render in the process,
// a full render once the code is warm (a new renderer each time), and a kept renderer's scrape after one or after
// half of the containers got a new sample. The load average is printed beside the figures (rerun quietly).
import { loadavg } from 'node:os';
import { CadvisorRenderer, SAMPLE, type CadvisorContainerInfo as Info } from '@nodelet/core/testing';
import type { ContainerSample } from '@nodelet/core/stats';
import { machineLine } from './runtimes.ts';
import { fmtMs, percentile, table } from './stats.ts';

const N = Number(process.env.BENCH_CONTAINERS ?? 220);
const REPS = Number(process.env.BENCH_REPS ?? 30);

/** A pod cgroup (with its network) for an odd i, a container (with its writable layer) for an even one. */
function container(i: number): Info {
  const uid = `0f3c2a1e-${String(i >> 1).padStart(4, '0')}-4b7d-9a2e-5c6d7e8f9a0b`;
  const sample: ContainerSample = {
    ...SAMPLE, time: 1764180000123 + i * 7,
    cpu: { usageNanoseconds: 123456789 * (i + 1), userNanoseconds: 98765432 * (i + 1), systemNanoseconds: 2468013 * (i + 1), periods: 0, throttledPeriods: 0, throttledNanoseconds: 0 },
  };
  if (i % 2 === 1) return { id: `/kubepods/besteffort/pod${uid}`, pod: `p${i >> 1}`, namespace: 'bench', sample, spec: { cpuShares: 2, cpuPeriod: 100000, memoryLimit: -1 } };
  const cid = `${'ab'.repeat(31)}${String(i).padStart(2, '0')}`;
  return {
    id: `/kubepods/besteffort/pod${uid}/${cid}`, name: cid, image: 'nodelet.local/host:latest', pod: `p${i >> 1}`, namespace: 'bench', container: 'main', sample: { ...sample, network: undefined },
    spec: { cpuShares: 2, cpuPeriod: 100000, memoryLimit: -1, startTimeMs: 1764180000000 + i }, fs: [{ device: '/dev/vda1', usageBytes: 4096 * i, limitBytes: 1e11, inodesFree: 5e6, inodes: 6e6 }],
  };
}

const containers = Array.from({ length: N }, (_, i) => container(i));
const source = { containers: () => containers, machine: () => undefined };
let turn = 0;
/** `n` containers get a new sample object (as housekeeping lands one), each with new cpu and memory figures. */
function newSamples(n: number): void {
  for (let k = 0; k < n; k++) {
    const i = (turn++ * 37) % N;
    const c = containers[i] as Info;
    const s = c.sample as ContainerSample;
    containers[i] = { ...c, sample: { ...s, time: s.time + 1000, cpu: s.cpu && { ...s.cpu, usageNanoseconds: s.cpu.usageNanoseconds + 1234567 }, memory: s.memory && { ...s.memory, workingSetBytes: s.memory.workingSetBytes + 4096 } } };
  }
}
async function cpuMs(f: () => Promise<unknown>): Promise<number> {
  const t = process.cpuUsage();
  await f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}
const scrape = (r: CadvisorRenderer) => r.renderPage(source).gzip();

const first = await cpuMs(() => scrape(new CadvisorRenderer()));
const full: number[] = [];
for (let i = 0; i < REPS; i++) full.push(await cpuMs(() => scrape(new CadvisorRenderer())));
const kept = new CadvisorRenderer();
await scrape(kept);
const half: number[] = [];
const one: number[] = [];
for (let i = 0; i < REPS; i++) half.push(await cpuMs(async () => (newSamples(N >> 1), await scrape(kept))));
for (let i = 0; i < REPS; i++) one.push(await cpuMs(async () => (newSamples(1), await scrape(kept))));
const page = kept.renderPage(source);
const row = (what: string, ms: number[]) => [what, fmtMs(percentile(ms, 50)), fmtMs(percentile(ms, 99)), (loadavg()[0] ?? 0).toFixed(1)];
console.log(`\n/metrics/cadvisor render + gzip, CPU of this process: ${N} containers, a ${(page.bytes.length / 2 ** 20).toFixed(2)} MiB page, ${((await page.gzip()).length / 1024).toFixed(0)} KiB gzipped; ${REPS} runs each`);
console.log(`${machineLine()}\n`);
console.log(table(['scrape', 'CPU p50', 'CPU p99', 'load 1m'], [row('first render in this process', [first]), row('full render (warm code)', full), row(`kept renderer, ${N >> 1} new samples`, half), row('kept renderer, 1 new sample', one)]));
