/**
 * The node shutdown manager's progress on the bus (`shutdown` events) and from progress(): the configured groups
 * (shutdownGracePeriod 30 s / critical 10 s → regular 20 s, critical 10 s, as upstream migrateConfig), each pod's
 * grace min(own, group's), the regular group before the critical one, the end, and a cancellation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { InMemoryEventBus } from '../events/bus.ts';
import type { ShutdownBusEvent } from '../events/types.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { makePod } from '../kuberuntime/testing/builders.ts';
import { migrateConfig, SYSTEM_CRITICAL_PRIORITY } from './node-shutdown-groups.ts';
import { NodeShutdownManager } from './node-shutdown.ts';
import { PUBLISH_COALESCE_MS } from './node-shutdown-progress.ts';

function setup(pods: V1Pod[]) {
  const clock = new FakeClock();
  const bus = new InMemoryEventBus({ clock });
  const pending = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const m = new NodeShutdownManager(
    {
      clock, logger: nullLogger, bus, nodeName: 'n1',
      recorder: { event: () => undefined },
      activePods: () => pods,
      killPod: (p) => new Promise<void>((resolve, reject) => pending.set(p.metadata!.name!, { resolve, reject })),
      syncNodeStatus: () => undefined,
    },
    migrateConfig(30, 10),
  );
  const events = () => bus.recent({ types: ['shutdown'] }, 1000) as ShutdownBusEvent[];
  const flush = () => new Promise((r) => setImmediate(r));
  return { clock, m, pending, events, flush };
}

const pod = (name: string, grace: number, priority?: number): V1Pod => {
  const p = makePod({ name, grace });
  if (priority !== undefined) p.spec!.priority = priority;
  return p;
};

test('idle: the configured groups, lowest priority first, nothing published', () => {
  const { m, events } = setup([]);
  assert.deepEqual(m.progress(), {
    phase: 'idle',
    groups: [
      { priority: 0, shutdownGracePeriodSeconds: 20, state: 'pending', pods: [] },
      { priority: SYSTEM_CRITICAL_PRIORITY, shutdownGracePeriodSeconds: 10, state: 'pending', pods: [] },
    ],
  });
  assert.equal(events().length, 0);
});

test('a shutdown: regular pods terminating with min(own grace, 20 s), then critical ones, then done — each step on the bus', async () => {
  const { clock, m, pending, events, flush } = setup([pod('web', 5), pod('db', 60), pod('dns', 30, SYSTEM_CRITICAL_PRIORITY)]);
  const t0 = new Date(clock.now()).toISOString();
  const done = m.shutdownNow();
  await flush();
  let p = m.progress();
  assert.equal(p.phase, 'shuttingDown');
  assert.equal(p.message, 'node is shutting down');
  assert.equal(p.startTime, t0);
  assert.deepEqual(p.groups.map((g) => g.state), ['running', 'pending']);
  assert.deepEqual(p.groups[0]!.pods.map((x) => [x.name, x.gracePeriodSeconds, x.state, x.startedAt]), [['web', 5, 'terminating', t0], ['db', 20, 'terminating', t0]]);
  assert.deepEqual(events().map((e) => e.progress.phase), ['shuttingDown', 'shuttingDown'], 'begin, then the regular group started');

  await clock.step(3_000);
  pending.get('web')!.resolve();
  await flush();
  assert.equal(m.progress().groups[0]!.pods[0]!.state, 'terminated');
  assert.equal(events().length, 2, 'a pod change waits for the coalescing period');
  await clock.step(PUBLISH_COALESCE_MS);
  assert.equal(events().at(-1)!.progress.groups[0]!.pods[0]!.finishedAt, new Date(clock.now() - PUBLISH_COALESCE_MS).toISOString());

  pending.get('db')!.reject(new Error('rpc error: DeadlineExceeded'));
  await flush();
  await flush();
  p = m.progress();
  assert.deepEqual(p.groups[0]!.pods[1]!.state, 'failed');
  assert.equal(p.groups[0]!.pods[1]!.error, 'rpc error: DeadlineExceeded');
  assert.deepEqual(p.groups.map((g) => g.state), ['done', 'running']);
  assert.deepEqual(p.groups[1]!.pods.map((x) => [x.name, x.gracePeriodSeconds]), [['dns', 10]]);

  // The critical pod outlives its group's 10 s: the group times out, the shutdown ends.
  await clock.step(10_000);
  await done;
  p = m.progress();
  assert.equal(p.phase, 'done');
  assert.equal(p.endTime, new Date(clock.now()).toISOString());
  assert.deepEqual(p.groups.map((g) => g.state), ['done', 'timedOut']);
  assert.equal(events().at(-1)!.progress.phase, 'done');
  await m.stop();
});

test('a cancellation after the shutdown is news; one while idle is not', async () => {
  const { m, events, flush } = setup([]);
  await m.onShutdownEvent(false);
  assert.equal(events().length, 0);
  await m.onShutdownEvent(true);
  await m.onShutdownEvent(false);
  await flush();
  assert.deepEqual(events().map((e) => e.progress.phase), ['shuttingDown', 'done', 'cancelled']);
  assert.equal(m.progress().message, undefined);
});
