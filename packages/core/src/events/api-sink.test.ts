import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import { InMemoryEventBus } from './bus.ts';
import { KubeletEventRecorder } from './recorder.ts';
import { ApiEventSink } from './api-sink.ts';

function setup() {
  const clock = new FakeClock();
  const bus = new InMemoryEventBus({ clock });
  const recorder = new KubeletEventRecorder({ bus, clock }, { qps: 1, burst: 2 });
  const client = new FakeApiClient(() => ok({}));
  const sink = new ApiEventSink({ client, bus, logger: nullLogger, nodeName: 'n1' });
  sink.start();
  return { clock, recorder, client, sink };
}

describe('ApiEventSink', () => {
  it('creates core/v1 Events with the kubelet source, then patches count/lastTimestamp for repeats', async () => {
    const { clock, recorder, client, sink } = setup();
    const pod = { kind: 'Pod', namespace: 'ns', name: 'web', uid: 'u1', fieldPath: 'spec.containers{c}' };
    recorder.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container c');
    await clock.step(5_000);
    recorder.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container c');
    recorder.event({ kind: 'Node', name: 'n1' }, 'Normal', 'Starting', 'Starting kubelet.');
    await sink.flush();
    assert.deepEqual(client.summary().map((s) => s.replace(/events\/.*$/, 'events/<name>')), [
      'POST /api/v1/namespaces/ns/events',
      'PATCH /api/v1/namespaces/ns/events/<name>',
      'POST /api/v1/namespaces/default/events',
    ]);
    const created = client.calls[0]?.body as Record<string, any>;
    assert.match(created.metadata.name, /^web\.[0-9a-f]+$/);
    assert.deepEqual(created.involvedObject, { apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: 'ns', uid: 'u1', fieldPath: 'spec.containers{c}' });
    assert.deepEqual([created.type, created.reason, created.count], ['Warning', 'BackOff', 1]);
    assert.deepEqual(created.source, { component: 'kubelet', host: 'n1' });
    assert.equal(client.calls[1]?.path, `/api/v1/namespaces/ns/events/${created.metadata.name}`);
    assert.equal((client.calls[1]?.body as { count: number }).count, 2);
    assert.equal((client.calls[1]?.body as { lastTimestamp: string }).lastTimestamp, new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    const node = client.calls[2]?.body as Record<string, any>;
    assert.deepEqual(node.involvedObject, { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'n1' });
    await sink.stop();
  });

  it('re-creates an aggregated Event that is gone; the recorder rate limit (qps/burst) drops the excess', async () => {
    const { recorder, client, sink } = setup();
    const ref = { kind: 'Pod', namespace: 'ns', name: 'web', uid: 'u1' };
    recorder.event(ref, 'Normal', 'Pulled', 'x');
    await sink.flush();
    client.handler = (req) => (req.method === 'PATCH' ? fail(404, 'NotFound') : ok({}));
    recorder.event(ref, 'Normal', 'Pulled', 'x');
    recorder.event(ref, 'Normal', 'Pulled', 'x'); // over the burst of 2: dropped
    await sink.flush();
    assert.deepEqual(client.summary().map((s) => s.split(' ')[0]), ['POST', 'PATCH', 'POST']);
    assert.equal(sink.written, 2);
    await sink.stop();
  });
});
