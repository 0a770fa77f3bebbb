import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { InMemoryEventBus } from './bus.ts';
import { KubeletEventRecorder, podRef } from './recorder.ts';

const pod = { metadata: { namespace: 'default', name: 'web-node1', uid: 'u1' } };

test('event publishes a k8sEvent with the object reference', () => {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock });
  const rec = new KubeletEventRecorder({ bus, clock });
  const e = rec.event(podRef(pod, 'app'), 'Normal', 'Pulling', 'Pulling image "busybox"');
  assert.ok(e);
  assert.equal(e.type, 'k8sEvent');
  assert.deepEqual(e.involvedObject, {
    kind: 'Pod',
    namespace: 'default',
    name: 'web-node1',
    uid: 'u1',
    fieldPath: 'spec.containers{app}',
  });
  assert.equal(e.count, 1);
  assert.equal(e.firstTimestamp, '2026-01-01T00:00:00.000Z');
  assert.deepEqual(bus.recent({ pod: 'web-node1' }).map((x) => x.seq), [e.seq]);
});

test('repeats of the same event aggregate: count and lastTimestamp bump, firstTimestamp kept', async () => {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock });
  const rec = new KubeletEventRecorder({ bus, clock });
  const ref = podRef(pod, 'app');
  rec.event(ref, 'Warning', 'BackOff', 'Back-off restarting failed container');
  await clock.step(10_000);
  const second = rec.event(ref, 'Warning', 'BackOff', 'Back-off restarting failed container');
  rec.event(ref, 'Warning', 'BackOff', 'a different message');
  assert.equal(second?.count, 2);
  assert.equal(second?.firstTimestamp, '2026-01-01T00:00:00.000Z');
  assert.equal(second?.lastTimestamp, '2026-01-01T00:00:10.000Z');
  const agg = rec.eventsFor({ kind: 'Pod', namespace: 'default', name: 'web-node1' });
  assert.deepEqual(
    agg.map((e) => [e.message, e.count]),
    [
      ['Back-off restarting failed container', 2],
      ['a different message', 1],
    ],
  );
});

test('token bucket: burst then qps, refilled by the clock', async () => {
  const clock = new FakeClock();
  const bus = new InMemoryEventBus({ clock });
  const rec = new KubeletEventRecorder({ bus, clock }, { qps: 50, burst: 100 });
  let ok = 0;
  for (let i = 0; i < 150; i++) if (rec.event(podRef(pod), 'Normal', 'X', `m${i}`)) ok++;
  assert.equal(ok, 100);
  assert.equal(rec.dropped, 50);
  await clock.step(100); // 0.1 s × 50 qps = 5 tokens
  ok = 0;
  for (let i = 0; i < 10; i++) if (rec.event(podRef(pod), 'Normal', 'Y', `m${i}`)) ok++;
  assert.equal(ok, 5);
});

test('qps 0 disables rate limiting', () => {
  const clock = new FakeClock();
  const rec = new KubeletEventRecorder({ bus: new InMemoryEventBus({ clock }), clock }, { qps: 0 });
  for (let i = 0; i < 500; i++) assert.ok(rec.event(podRef(pod), 'Normal', 'X', `m${i}`));
});
