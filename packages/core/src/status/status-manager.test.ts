import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import type { PodStatusBusEvent } from '../events/types.ts';
import { BasicStatusManager } from './status-manager.ts';
import type { StatusSyncer, VersionedPodStatus } from './types.ts';

const pod = (uid = 'u1', annotations?: Record<string, string>): V1Pod => ({
  metadata: { name: 'web', namespace: 'default', uid, annotations },
  spec: { containers: [{ name: 'app' }] },
});
const cs = (ready: boolean, state: V1ContainerStatus['state'] = { running: {} }): V1ContainerStatus => ({
  name: 'app', image: 'busybox', imageID: '', ready, restartCount: 0, state,
});
const status = (ready: boolean, probe?: Date): V1PodStatus => ({
  phase: 'Running',
  conditions: [
    { type: 'ContainersReady', status: ready ? 'True' : 'False', lastProbeTime: probe },
    { type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: probe },
  ],
  containerStatuses: [cs(ready)],
});

class RecordingSyncer implements StatusSyncer {
  synced: VersionedPodStatus[] = [];
  forgotten: string[] = [];
  async sync(v: VersionedPodStatus) {
    this.synced.push(v);
  }
  forget(uid: string) {
    this.forgotten.push(uid);
  }
}

function setup() {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock });
  const syncer = new RecordingSyncer();
  const m = new BasicStatusManager({ clock, bus, syncer });
  m.start();
  const events = () => bus.recent({ types: ['podStatus'] }) as PodStatusBusEvent[];
  return { clock, bus, syncer, m, events };
}

test('version bumps only on real change; probe-time churn ignored', async () => {
  const { clock, m, events, syncer } = setup();
  assert.equal(m.setPodStatus(pod(), status(false)), 1);
  await clock.step(1000);
  assert.equal(m.setPodStatus(pod(), status(false, new Date(clock.now()))), 1, 'lastProbeTime only');
  assert.equal(m.setPodStatus(pod(), status(true)), 2);
  assert.equal(m.getVersionedStatus('u1')?.version, 2);
  assert.equal(events().length, 2);
  assert.equal(syncer.synced.length, 2);
  const last = events().at(-1);
  assert.equal(last?.ready, true);
  assert.equal(last?.phase, 'Running');
  assert.deepEqual(last?.containers, [{ name: 'app', state: 'running', ready: true, restartCount: 0 }]);
});

test('lastTransitionTime kept while a condition keeps its status; startTime set once', async () => {
  const { clock, m } = setup();
  m.setPodStatus(pod(), status(false));
  const t0 = m.getPodStatus('u1')?.conditions?.[0]?.lastTransitionTime;
  const start = m.getPodStatus('u1')?.startTime;
  assert.equal(t0?.toISOString(), '2026-01-01T00:00:00.000Z');
  await clock.step(5000);
  m.setPodStatus(pod(), { ...status(false), message: 'something else' });
  assert.equal(m.getPodStatus('u1')?.conditions?.[0]?.lastTransitionTime, t0);
  await clock.step(5000);
  m.setPodStatus(pod(), status(true));
  assert.equal(m.getPodStatus('u1')?.conditions?.[0]?.lastTransitionTime?.toISOString(), '2026-01-01T00:00:10.000Z');
  assert.equal(m.getPodStatus('u1')?.startTime, start);
});

test('a terminal phase is not left', () => {
  const { m } = setup();
  m.setPodStatus(pod(), { ...status(false), phase: 'Failed' });
  m.setPodStatus(pod(), status(true));
  assert.equal(m.getPodStatus('u1')?.phase, 'Failed');
});

test('setContainerReadiness recomputes ContainersReady and Ready', () => {
  const { m, events } = setup();
  m.setPodStatus(pod(), status(false));
  m.setContainerReadiness('u1', 'app', true);
  const s = m.getPodStatus('u1');
  assert.equal(s?.containerStatuses?.[0]?.ready, true);
  assert.deepEqual(s?.conditions?.map((c) => [c.type, c.status]), [
    ['ContainersReady', 'True'],
    ['Ready', 'True'],
  ]);
  assert.equal(events().at(-1)?.ready, true);
  m.setContainerReadiness('unknown-uid', 'app', true);
  m.setContainerStartup('u1', 'app', true);
  assert.equal(m.getPodStatus('u1')?.containerStatuses?.[0]?.started, true);
});

test('removeOrphanedStatuses keeps only the given UIDs and tells the syncer', () => {
  const { m, syncer } = setup();
  m.setPodStatus(pod('a'), status(true));
  m.setPodStatus(pod('b'), status(true));
  m.removeOrphanedStatuses(new Set(['a']));
  assert.ok(m.getPodStatus('a'));
  assert.equal(m.getPodStatus('b'), undefined);
  assert.deepEqual(syncer.forgotten, ['b']);
});

test('no sync before start or after stop; the cache still updates', () => {
  const clock = new FakeClock();
  const syncer = new RecordingSyncer();
  const m = new BasicStatusManager({ clock, syncer });
  m.setPodStatus(pod(), status(false));
  assert.equal(syncer.synced.length, 0);
  m.start();
  m.setPodStatus(pod(), status(true));
  m.stop();
  m.setPodStatus(pod(), status(false));
  assert.equal(syncer.synced.length, 1);
  assert.equal(m.getVersionedStatus('u1')?.version, 3);
});
