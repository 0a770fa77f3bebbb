// Image status asked while the sandbox starts (KubeImageManager.inspectAhead): EnsureImageExists uses the answer
// once instead of asking again; the pull decision, the pull and the events stay EnsureImageExists' own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { KubeImageManager } from './image-manager.ts';
import { container, makePod } from '../kuberuntime/testing/builders.ts';

function setup() {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images: ['present:1'] });
  const events: string[] = [];
  const m = new KubeImageManager({ cri, clock, logger: nullLogger, events: (_p, _t, reason) => events.push(reason) });
  return { cri, events, m };
}

test('inspect ahead: the answer asked while the sandbox starts is used once; no event until EnsureImageExists', async () => {
  const { cri, events, m } = setup();
  const ctr = container('c', { image: 'present:1', imagePullPolicy: 'IfNotPresent' });
  const pod = makePod({ containers: [ctr] });
  const drop = m.inspectAhead(pod, [ctr]);
  assert.equal(cri.callsOf('imageStatus').length, 1, 'asked at once');
  assert.deepEqual(events, [], 'the Pulled event waits for EnsureImageExists');
  const r = await m.ensureImageExists(pod, ctr);
  assert.equal(r.ok && r.imageRef !== '', true);
  assert.equal(cri.callsOf('imageStatus').length, 1, 'EnsureImageExists did not ask again');
  assert.deepEqual(events, ['Pulled']);
  await m.ensureImageExists(pod, ctr);
  assert.equal(cri.callsOf('imageStatus').length, 2, 'used once: the next EnsureImageExists asks afresh');
  drop();
});

test('inspect ahead: an answer not used is dropped when the sync ends (a later EnsureImageExists asks afresh)', async () => {
  const { cri, m } = setup();
  const ctr = container('c', { image: 'present:1', imagePullPolicy: 'IfNotPresent' });
  const pod = makePod({ containers: [ctr] });
  m.inspectAhead(pod, [ctr])();
  await m.ensureImageExists(pod, ctr);
  assert.equal(cri.callsOf('imageStatus').length, 2);
});

test('inspect ahead: an image absent ahead is still pulled by EnsureImageExists (Pulling after the answer), and a failed answer is ImageInspectError', async () => {
  const { cri, events, m } = setup();
  const ctr = container('c', { image: 'absent:1', imagePullPolicy: 'IfNotPresent' });
  const pod = makePod({ containers: [ctr] });
  m.inspectAhead(pod, [ctr]);
  assert.equal(cri.callsOf('pullImage').length, 0, 'no pull ahead');
  const r = await m.ensureImageExists(pod, ctr);
  assert.equal(r.ok ? 'ok' : r.reason, 'ErrImagePull');
  assert.equal(cri.callsOf('pullImage').length, 1);
  assert.deepEqual(events, ['Pulling', 'Failed']);

  const other = container('d', { image: 'present:1' });
  cri.failNext('imageStatus');
  m.inspectAhead(pod, [other]);
  const failed = await m.ensureImageExists(pod, other);
  assert.equal(failed.ok ? 'ok' : failed.reason, 'ImageInspectError');
});
