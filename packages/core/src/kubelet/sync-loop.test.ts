import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { BoundedChannel } from '../util/bounded-channel.ts';
import type { PodLifecycleEvent } from '../pleg/types.ts';
import { SyncLoop, type SyncLoopHandlers } from './sync-loop.ts';

function recording(): SyncLoopHandlers & { log: string[] } {
  const log: string[] = [];
  const names = (ps: V1Pod[]) => ps.map((p) => p.metadata?.name).join(',');
  return {
    log,
    handlePodAdditions: (ps) => void log.push(`add ${names(ps)}`),
    handlePodUpdates: (ps) => void log.push(`update ${names(ps)}`),
    handlePodRemoves: (ps) => void log.push(`remove ${names(ps)}`),
    handlePodDeletes: (ps) => void log.push(`delete ${names(ps)}`),
    handlePodReconcile: (ps) => void log.push(`reconcile ${names(ps)}`),
    handlePlegEvent: (e) => void log.push(`pleg ${e.type} ${e.uid}`),
    handleProbeSync: (u) => void log.push(`probe ${u.probeType} ${u.result} ${u.podUid}`),
    handleSyncTick: () => void log.push('tick'),
    handleHousekeeping: () => void log.push('housekeeping'),
  };
}

test('sync loop dispatches config ops, probe failures, PLEG events, ticks and housekeeping in order', async () => {
  const clock = new FakeClock();
  const pleg = new BoundedChannel<PodLifecycleEvent>(10);
  const h = recording();
  const loop = new SyncLoop({ handlers: h, clock, logger: nullLogger, pleg }, { syncTickMs: 1_000, housekeepingMs: 2_000 });
  loop.start();
  const p = { metadata: { name: 'a' } } as V1Pod;
  for (const op of ['ADD', 'UPDATE', 'DELETE', 'RECONCILE', 'REMOVE'] as const) loop.push({ kind: 'config', update: { op, pods: [p], source: 'file' } });
  loop.push({ kind: 'probe', update: { podUid: 'u1', containerId: 'c1', containerName: 'app', probeType: 'liveness', result: 'failure' } });
  pleg.trySend({ uid: 'u1', type: 'ContainerDied', data: 'c1' });
  await clock.step(2_000);
  assert.deepEqual(h.log.slice(0, 6), ['add a', 'update a', 'delete a', 'reconcile a', 'remove a', 'probe liveness failure u1']);
  assert.deepEqual(h.log.slice(6).sort(), ['housekeeping', 'pleg ContainerDied u1', 'tick', 'tick']);
  assert.equal(loop.lastIteration, clock.now());
  loop.stop();
  loop.push({ kind: 'syncTick' });
  await clock.step(5_000);
  assert.equal(h.log.length, 10, 'stopped loop ignores inputs and timers');
  assert.equal(clock.pending(), 0);
});
