import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CriClient } from '../cri/types.ts';
import type { ContainerSample, TrackedContainer } from '../stats/types.ts';
import { withCriFallback } from './cri-stats-sampler.ts';

const stat = (cpu: number, ws: number) => ({
  attributes: null, writableLayer: null, swap: null, io: null,
  cpu: { timestamp: 0, usageCoreNanoSeconds: { value: cpu }, usageNanoCores: null, psi: null },
  memory: { timestamp: 0, workingSetBytes: { value: ws }, availableBytes: null, usageBytes: { value: ws }, rssBytes: null, pageFaults: null, majorPageFaults: null, psi: null },
});

function fakeCri(calls: string[], fail = false): CriClient {
  return {
    containerStats: (req: { containerId: string }) => {
      calls.push(`containerStats ${req.containerId}`);
      return fail ? Promise.reject(new Error('gone')) : Promise.resolve({ stats: stat(5, 100) });
    },
    listContainerStats: (req: { filter?: { labelSelector?: Record<string, string> } }) => {
      calls.push(`listContainerStats ${req.filter?.labelSelector?.['io.kubernetes.pod.uid']}`);
      return Promise.resolve({ stats: [stat(1, 10), stat(2, 20)] });
    },
  } as unknown as CriClient;
}

const ctr: TrackedContainer = { key: '/kubepods/burstable/podu1/c1', cgroup: '/kubepods/burstable/podu1/c1', labels: { name: 'c1', container: 'app', pod: 'p' } };
const pod: TrackedContainer = { key: '/kubepods/burstable/podu1', cgroup: '/kubepods/burstable/podu1', labels: { pod: 'p' } };
const node: TrackedContainer = { key: '/', cgroup: '/' };
const fromCgroup: ContainerSample = { time: 1 };

const cases: { name: string; target: TrackedContainer; base?: ContainerSample; fail?: boolean; calls: string[]; cpu?: number; ws?: number }[] = [
  { name: 'cgroup sample wins, no CRI call', target: ctr, base: fromCgroup, calls: [] },
  { name: 'container from ContainerStats', target: ctr, calls: ['containerStats c1'], cpu: 5, ws: 100 },
  { name: 'pod = sum of its containers by pod uid label', target: pod, calls: ['listContainerStats u1'], cpu: 3, ws: 30 },
  { name: 'node is never asked of the runtime', target: node, calls: [] },
  { name: 'runtime error = no sample', target: ctr, fail: true, calls: ['containerStats c1'] },
];

for (const c of cases) {
  test(`CRI stats fallback: ${c.name}`, async () => {
    const calls: string[] = [];
    const s = await withCriFallback(() => Promise.resolve(c.base), fakeCri(calls, c.fail), () => 42)(c.target);
    assert.deepEqual(calls, c.calls);
    if (c.base) return assert.equal(s, c.base);
    assert.equal(s?.cpu?.usageNanoseconds, c.cpu);
    assert.equal(s?.memory?.workingSetBytes, c.ws);
    if (s) assert.equal(s.time, 42);
  });
}
