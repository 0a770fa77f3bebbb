import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { ActiveDeadlineHandler } from './active-deadline.ts';

function setup() {
  const clock = new FakeClock();
  const statuses = new Map<string, V1PodStatus>();
  const events: string[] = [];
  const h = new ActiveDeadlineHandler({
    clock,
    statusProvider: { getPodStatus: (uid) => statuses.get(uid) },
    recorder: { event: (ref, type, reason, message) => void events.push(`${ref.name} ${type} ${reason}: ${message}`) },
  });
  return { clock, statuses, events, h };
}

const pod = (deadline?: number, status?: V1PodStatus): V1Pod => ({
  metadata: { name: 'job', namespace: 'default', uid: 'u1' },
  spec: { containers: [{ name: 'c' }], ...(deadline !== undefined ? { activeDeadlineSeconds: deadline } : {}) },
  ...(status ? { status } : {}),
});

test('active deadline: due once the pod has been active activeDeadlineSeconds since its startTime (injected clock)', async () => {
  const { clock, statuses, events, h } = setup();
  statuses.set('u1', { phase: 'Running', startTime: new Date(clock.now()) });
  await clock.step(9_999);
  assert.equal(h.shouldSync(pod(10)), false);
  assert.deepEqual(h.shouldEvict(pod(10)), { evict: false });
  await clock.step(1);
  assert.equal(h.shouldSync(pod(10)), true);
  assert.deepEqual(h.shouldEvict(pod(10)), { evict: true, reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' });
  assert.deepEqual(events, ['job Normal DeadlineExceeded: Pod was active on the node longer than the specified deadline']);
  // Once the pod's status says so, the event is not repeated.
  statuses.set('u1', { phase: 'Failed', reason: 'DeadlineExceeded', startTime: statuses.get('u1')?.startTime });
  h.shouldEvict(pod(10));
  assert.equal(events.length, 1);
});

test('active deadline: no deadline, or no start time yet, never expires; the pod\'s own status counts without a cached one', async () => {
  const { clock, h } = setup();
  await clock.step(100_000);
  assert.equal(h.shouldSync(pod()), false);
  assert.equal(h.shouldSync(pod(1)), false, 'not started');
  assert.equal(h.shouldSync(pod(1, { startTime: new Date(clock.now() - 1_000) })), true);
});
