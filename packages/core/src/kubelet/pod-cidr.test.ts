// podCIDR → CRI UpdateRuntimeConfig, as the kubelet's updatePodCIDR (kubelet_network.go) and the runtime
// manager's UpdatePodCIDR (kuberuntime_manager.go): sent only when it differs from what the runtime accepted,
// never for "" (the default: the runtime's own range); "Pod CIDR update failed" logged on an error, and the
// range sent again once the runtime is ready (a runtime bus event).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { CriError } from '../cri/types.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import { FakeClock } from '../util/clock.ts';
import { RecordingLogger } from '../util/logger.ts';
import { PodCidrUpdater } from './pod-cidr.ts';

function setup() {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock });
  const bus = new InMemoryEventBus({ clock });
  const log = new RecordingLogger();
  const u = new PodCidrUpdater({ cri, logger: log.logger, bus });
  const sent = () => cri.callsOf<{ runtimeConfig: { networkConfig: { podCidr: string } } }>('updateRuntimeConfig').map((r) => r.runtimeConfig.networkConfig.podCidr);
  return { cri, bus, log, u, sent };
}

test('the default (no podCIDR) sends nothing; a range is sent once, a new one again', async () => {
  const { cri, u, sent, log } = setup();
  await u.start('');
  assert.deepEqual(sent(), []);
  assert.equal(await u.update('10.244.1.0/24'), true);
  assert.equal(await u.update('10.244.1.0/24'), false);
  assert.equal(await u.update('10.244.2.0/24'), true);
  // The flag's default after the Node's range arrived (API-server mode) does not undo it.
  assert.equal(await u.update(''), false);
  assert.deepEqual(sent(), ['10.244.1.0/24', '10.244.2.0/24']);
  assert.equal(cri.podCidr, '10.244.2.0/24');
  assert.equal(u.podCIDR, '10.244.2.0/24');
  assert.deepEqual(log.records.filter((r) => r.msg === 'Updating Pod CIDR').map((r) => [r.originalPodCIDR, r.newPodCIDR]), [['', '10.244.1.0/24'], ['10.244.1.0/24', '10.244.2.0/24']]);
});

test('a runtime error is logged and the range is sent again when the runtime turns ready', async () => {
  const { cri, bus, u, sent, log } = setup();
  cri.failNext('updateRuntimeConfig', new CriError('INVALID_ARGUMENT', 'invalid pod CIDR "10.300.0.0/16"'));
  await u.start('10.244.1.0/24');
  assert.equal(u.podCIDR, '');
  assert.match(String(log.records.find((r) => r.msg === 'Pod CIDR update failed')?.err), /^failed to update pod CIDR: .*invalid pod CIDR/);
  bus.publish({ type: 'runtime', ready: false, message: 'down' });
  bus.publish({ type: 'runtime', ready: true, message: '' });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent(), ['10.244.1.0/24', '10.244.1.0/24']);
  assert.equal(u.podCIDR, '10.244.1.0/24');
  bus.publish({ type: 'runtime', ready: true, message: '' });
  await new Promise((r) => setImmediate(r));
  assert.equal(sent().length, 2, 'accepted: not sent again');
  u.stop();
});
