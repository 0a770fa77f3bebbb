import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerSample, StatsContainer } from '../../lib/api-types.ts';
import { ancestorsOf, childrenOf, displayName, findPodContainer, hrefFor, keyFromPath, rankSubcontainers } from './stats-nav.ts';

const list: StatsContainer[] = [
  { key: '/', kind: 'node', labels: { name: '/' } },
  { key: '/kubepods', kind: 'qos', parent: '/', labels: {} },
  { key: '/kubepods/besteffort', kind: 'qos', parent: '/kubepods', labels: {} },
  { key: '/kubepods/besteffort/podA', kind: 'pod', parent: '/kubepods/besteffort', labels: { pod: 'web', namespace: 'default' } },
  { key: '/kubepods/besteffort/podA/c1', kind: 'container', parent: '/kubepods/besteffort/podA', labels: { pod: 'web', namespace: 'default', container: 'nginx' } },
  { key: '/kubepods/besteffort/podA/c2', kind: 'container', parent: '/kubepods/besteffort/podA', labels: { pod: 'web', namespace: 'default', container: 'side' } },
  { key: '/kubepods/besteffort/podA/c3', kind: 'container', parent: '/kubepods/besteffort/podA', labels: { pod: 'web', namespace: 'default', container: 'idle' } },
];
const cpu = (ns: number) => ({ usageNanoseconds: ns, userNanoseconds: 0, systemNanoseconds: 0, periods: 0, throttledPeriods: 0, throttledNanoseconds: 0 });
const mem = (ws: number) => ({ usageBytes: ws, workingSetBytes: ws, rssBytes: 0, cacheBytes: 0, mappedFileBytes: 0, swapBytes: 0, maxUsageBytes: 0, failcnt: 0, oomEvents: 0, oomKills: 0, pageFaults: 0, majorPageFaults: 0, limitBytes: -1 });

test('keyFromPath and hrefFor round-trip', () => {
  const cases: Array<[string[] | undefined, string]> = [[undefined, '/'], [[], '/'], [['kubepods', 'besteffort'], '/kubepods/besteffort'], [['system.slice', 'a%20b'], '/system.slice/a b']];
  for (const [segs, key] of cases) assert.equal(keyFromPath(segs), key);
  assert.equal(hrefFor(list[0]!), '/containers');
  assert.equal(hrefFor(list[2]!), '/containers/kubepods/besteffort');
  assert.equal(hrefFor(list[3]!), '/containers/pods/default/web');
  assert.equal(hrefFor({ key: '/a b', kind: 'system', labels: {} }), '/containers/a%20b');
});

test('findPodContainer, displayName, childrenOf, ancestorsOf', () => {
  assert.equal(findPodContainer(list, 'default', 'web')?.key, '/kubepods/besteffort/podA');
  assert.equal(findPodContainer(list, 'other', 'web'), undefined);
  assert.deepEqual(list.map(displayName), ['node', '/kubepods', '/kubepods/besteffort', 'default/web', 'default/web · nginx', 'default/web · side', 'default/web · idle']);
  assert.deepEqual(childrenOf(list, '/kubepods').map((c) => c.key), ['/kubepods/besteffort']);
  assert.deepEqual(ancestorsOf(list, '/kubepods/besteffort/podA/c1').map((c) => c.key), ['/', '/kubepods', '/kubepods/besteffort', '/kubepods/besteffort/podA']);
  assert.deepEqual(ancestorsOf(list, '/'), []);
});

test('containers whose parent is not tracked hang under the nearest tracked ancestor', () => {
  const partial: StatsContainer[] = [
    { key: '/', kind: 'node', labels: {} },
    { key: '/kubepods/besteffort/podA', kind: 'pod', parent: '/kubepods/besteffort', labels: {} },
    { key: '/kubepods/besteffort/podA/c1', kind: 'container', parent: '/kubepods/besteffort/podA', labels: {} },
    { key: '/process_api/x', kind: 'system', parent: '/process_api', labels: {} },
    { key: '/system.slice', kind: 'system', labels: {} },
  ];
  assert.deepEqual(childrenOf(partial, '/').map((c) => c.key), ['/kubepods/besteffort/podA', '/process_api/x', '/system.slice']);
  assert.deepEqual(childrenOf(partial, '/kubepods/besteffort/podA').map((c) => c.key), ['/kubepods/besteffort/podA/c1']);
  assert.deepEqual(ancestorsOf(partial, '/kubepods/besteffort/podA/c1').map((c) => c.key), ['/', '/kubepods/besteffort/podA']);
});

test('rankSubcontainers by cpu and by memory, unknown last', () => {
  const kids = childrenOf(list, '/kubepods/besteffort/podA');
  const samples = new Map<string, ContainerSample[]>([
    ['/kubepods/besteffort/podA/c1', [{ time: 0, cpu: cpu(0), memory: mem(10) }, { time: 1000, cpu: cpu(2e8), memory: mem(10) }]],
    ['/kubepods/besteffort/podA/c2', [{ time: 0, cpu: cpu(0), memory: mem(50) }, { time: 1000, cpu: cpu(1e8), memory: mem(50) }]],
  ]);
  const byCpu = rankSubcontainers(kids, samples, 'cpu');
  assert.deepEqual(byCpu.map((r) => [r.container.labels.container, r.cpuCores]), [['nginx', 0.2], ['side', 0.1], ['idle', undefined]]);
  assert.deepEqual(rankSubcontainers(kids, samples, 'memory').map((r) => r.container.labels.container), ['side', 'nginx', 'idle']);
});
