import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Summary } from '../stats/summary-types.ts';
import { makeObservations, podUsageByUid, thresholdsMet } from './signals.ts';
import type { Threshold } from './types.ts';

const T = '2026-01-01T00:00:00.000Z';
const Mi = 2 ** 20;

export function summaryFixture(o: { memAvail?: number; memWs?: number; fsAvail?: number; fsCap?: number; pids?: [number, number]; time?: string } = {}): Summary {
  const time = o.time ?? T;
  return {
    node: {
      nodeName: 'n',
      startTime: T,
      memory: { time, availableBytes: o.memAvail ?? 900 * Mi, workingSetBytes: o.memWs ?? 100 * Mi },
      fs: { time, availableBytes: o.fsAvail ?? 50_000, capacityBytes: o.fsCap ?? 100_000, inodesFree: 900, inodes: 1000 },
      runtime: { imageFs: { time, availableBytes: 40_000, capacityBytes: 80_000, inodesFree: 10, inodes: 100 } },
      rlimit: { time, maxpid: o.pids?.[0] ?? 4096, curproc: o.pids?.[1] ?? 96 },
    },
    pods: [
      {
        podRef: { name: 'a', namespace: 'default', uid: 'ua' },
        startTime: T,
        containers: [
          { name: 'c1', startTime: T, memory: { time, workingSetBytes: 10 }, rootfs: { time, usedBytes: 5, inodesUsed: 2 }, logs: { time, usedBytes: 3, inodesUsed: 1 } },
          { name: 'c2', startTime: T, memory: { time, workingSetBytes: 20 }, rootfs: { time, usedBytes: 7 } },
        ],
        process_stats: { process_count: 4 },
      },
    ],
  };
}

test('makeObservations: every signal as the kubelet defines it', () => {
  const obs = makeObservations(summaryFixture(), 0);
  const t = Date.parse(T);
  assert.deepEqual(obs, {
    'memory.available': { available: 900 * Mi, capacity: 1000 * Mi, time: t },
    'nodefs.available': { available: 50_000, capacity: 100_000, time: t },
    'nodefs.inodesFree': { available: 900, capacity: 1000, time: t },
    'imagefs.available': { available: 40_000, capacity: 80_000, time: t },
    'imagefs.inodesFree': { available: 10, capacity: 100, time: t },
    'pid.available': { available: 4000, capacity: 4096, time: t },
  });
});

test('makeObservations: missing stats give no observation', () => {
  const s = summaryFixture();
  delete s.node.memory;
  delete s.node.runtime;
  const obs = makeObservations(s, 0);
  assert.equal(obs['memory.available'], undefined);
  assert.equal(obs['imagefs.available'], undefined);
  assert.ok(obs['nodefs.available']);
});

test('podUsageByUid: memory sums containers, disk by filesystem', () => {
  const s = summaryFixture();
  assert.deepEqual(podUsageByUid(s, 'nodefs.available').get('ua'), { memoryWorkingSetBytes: 30, diskBytes: 15, inodes: 3, processes: 4 });
  assert.deepEqual(podUsageByUid(s, 'imagefs.available').get('ua'), { memoryWorkingSetBytes: 30, diskBytes: 12, inodes: 2, processes: 4 });
});

test('thresholdsMet: table (with and without minimum reclaim)', () => {
  const obs = makeObservations(summaryFixture({ fsAvail: 9_000, fsCap: 100_000 }), 0);
  const th = (value: Threshold['value'], minReclaim?: Threshold['value']): Threshold => ({ signal: 'nodefs.available', kind: 'hard', value, gracePeriodMs: 0, ...(minReclaim ? { minReclaim } : {}) });
  const cases: Array<[string, Threshold, boolean, boolean]> = [
    ['10% of 100000 > 9000', th({ percentage: 0.1, raw: '10%' }), false, true],
    ['5% of 100000 < 9000', th({ percentage: 0.05, raw: '5%' }), false, false],
    ['quantity 9000 not met (strict <)', th({ quantity: 9_000, raw: '9000' }), false, false],
    ['5% + 5% reclaim met when enforcing', th({ percentage: 0.05, raw: '5%' }, { percentage: 0.05, raw: '5%' }), true, true],
    ['5% + 5% reclaim not met without enforcing', th({ percentage: 0.05, raw: '5%' }, { percentage: 0.05, raw: '5%' }), false, false],
  ];
  for (const [name, t, enforce, want] of cases) assert.equal(thresholdsMet([t], obs, enforce).length === 1, want, name);
});
