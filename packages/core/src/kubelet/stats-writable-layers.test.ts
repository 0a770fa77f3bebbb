import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CriClient } from '../cri/types.ts';
import { nullLogger } from '../util/logger.ts';
import type { ContainerStats__Output } from '../../../../proto/gen/runtime/v1/ContainerStats.ts';
import { cadvisorFsRows, deviceOf, WritableLayerCache, writableLayerOf } from './stats-writable-layers.ts';

const stats = (id: string, used?: number): ContainerStats__Output => ({
  attributes: { id, metadata: null, labels: {}, annotations: {} },
  cpu: null, memory: null, swap: null,
  writableLayer: used === undefined ? null : { timestamp: 5, fsId: { mountpoint: `/up/${id}` }, usedBytes: { value: used }, inodesUsed: { value: 3 } },
} as unknown as ContainerStats__Output);

test('writableLayerOf: the CRI writable layer, absent when the runtime reports none', () => {
  assert.deepEqual(writableLayerOf(stats('a', 10)), { usedBytes: 10, inodesUsed: 3, mountpoint: '/up/a', timestampNs: 5 });
  assert.equal(writableLayerOf(stats('b')), undefined);
});

test('WritableLayerCache: one ListContainerStats per refresh; a failing runtime keeps the last figures', async () => {
  const calls: unknown[] = [];
  let fail = false;
  const cri = { listContainerStats: async (req: unknown) => {
    calls.push(req);
    if (fail) throw new Error('unavailable');
    return { stats: [stats('a', 10), stats('b')] };
  } } as unknown as CriClient;
  const c = new WritableLayerCache({ cri, logger: nullLogger });
  assert.equal(c.get('a'), undefined);
  await c.refresh();
  assert.equal(calls.length, 1);
  assert.equal(c.get('a')?.usedBytes, 10);
  assert.equal(c.get('b'), undefined);
  fail = true;
  await c.refresh();
  assert.equal(c.get('a')?.usedBytes, 10);
});

test('cadvisorFsRows and deviceOf', () => {
  const fss = [{ device: '/dev/vda1', mountPoint: '/' }, { device: 'tmpfs', mountPoint: '/tmp' }, { device: '/dev/vdb', mountPoint: '/var/lib' }];
  const cases: [string, string][] = [['/var/lib/nodelet', '/dev/vdb'], ['/tmp/x', 'tmpfs'], ['/tmpx', '/dev/vda1'], ['/', '/dev/vda1']];
  for (const [p, want] of cases) assert.equal(deviceOf(p, fss), want, p);
  assert.equal(deviceOf('/x', []), '/x');
  const s = { capacityBytes: 100, availableBytes: 50, usedBytes: 50, inodes: 9, inodesFree: 4, inodesUsed: 5 };
  assert.deepEqual(cadvisorFsRows({ usedBytes: 7, inodesUsed: 1, mountpoint: '', timestampNs: 0 }, { device: 'd', stats: s }), [{ device: 'd', usageBytes: 7, limitBytes: 100, inodesFree: 4, inodes: 9 }]);
  assert.equal(cadvisorFsRows(undefined, { device: 'd', stats: s }), undefined);
});
