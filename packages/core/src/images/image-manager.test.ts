import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { KubeImageManager } from './image-manager.ts';
import { applyDefaultImageTag, pullPolicyOf } from './image-ref.ts';
import { container, makePod } from '../kuberuntime/testing/builders.ts';

function setup() {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images: ['present:1'] });
  const events: string[] = [];
  const m = new KubeImageManager(
    { cri, clock, logger: nullLogger, events: (_p, _t, reason, msg) => events.push(`${reason}: ${msg}`) },
    { backOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  return { clock, cri, events, m };
}

test('image refs and default pull policy', () => {
  const cases: Array<[string, string | false, string]> = [
    ['busybox', 'busybox:latest', 'Always'],
    ['busybox:1.36', 'busybox:1.36', 'IfNotPresent'],
    ['127.0.0.1:5000/busybox', '127.0.0.1:5000/busybox:latest', 'Always'],
    ['nodelet.local/host:latest', 'nodelet.local/host:latest', 'Always'],
    ['BusyBox', false, 'IfNotPresent'],
    ['a b', false, 'IfNotPresent'],
  ];
  for (const [image, tagged, policy] of cases) {
    const r = applyDefaultImageTag(image);
    assert.equal(r.ok ? r.image : false, tagged, image);
    assert.equal(pullPolicyOf({ name: 'c', image }), policy, image);
  }
});

test('ensureImageExists by pull policy', async () => {
  const cases = [
    { image: 'present:1', policy: 'IfNotPresent', ok: true, pulls: 0, event: 'Pulled: Container image "present:1" already present on machine' },
    { image: 'present:1', policy: 'Never', ok: true, pulls: 0, event: 'Pulled' },
    { image: 'absent:1', policy: 'Never', ok: false, reason: 'ErrImageNeverPull', pulls: 0, event: 'ErrImageNeverPull: Container image "absent:1" is not present with pull policy of Never' },
    { image: 'present:1', policy: 'Always', ok: true, pulls: 1, event: 'Pulled: Successfully pulled image "present:1"' },
    { image: 'absent:1', policy: 'IfNotPresent', ok: false, reason: 'ErrImagePull', pulls: 1, event: 'Failed: Failed to pull image "absent:1"' },
    { image: 'Bad_Name', policy: 'IfNotPresent', ok: false, reason: 'InvalidImageName', pulls: 0, event: 'InspectFailed' },
  ] as const;
  for (const c of cases) {
    const { cri, events, m } = setup();
    const ctr = container('c', { image: c.image, imagePullPolicy: c.policy });
    const r = await m.ensureImageExists(makePod({ containers: [ctr] }), ctr);
    assert.equal(r.ok, c.ok, `${c.image}/${c.policy}`);
    if (!r.ok && 'reason' in c) assert.equal(r.reason, c.reason);
    assert.equal(cri.callsOf('pullImage').length, c.pulls, `${c.image}/${c.policy} pulls`);
    assert.ok(events.some((e) => e.startsWith(c.event)), `${c.image}/${c.policy}: ${events.join(' | ')}`);
  }
});

test('failed pulls back off: ErrImagePull, ImagePullBackOff, then retry after 10s, 20s', async () => {
  const { clock, cri, m } = setup();
  const ctr = container('c', { image: 'absent:1' });
  const pod = makePod({ containers: [ctr] });
  const reasons: string[] = [];
  const attempt = async () => {
    const r = await m.ensureImageExists(pod, ctr);
    reasons.push(r.ok ? 'ok' : r.reason);
  };
  await attempt(); // pull fails → backoff 10s
  await clock.step(9_000);
  await attempt(); // in backoff
  await clock.step(1_000);
  await attempt(); // pulls again → backoff 20s
  await clock.step(19_000);
  await attempt();
  await clock.step(1_000);
  await attempt();
  assert.deepEqual(reasons, ['ErrImagePull', 'ImagePullBackOff', 'ErrImagePull', 'ImagePullBackOff', 'ErrImagePull']);
  assert.equal(cri.callsOf('pullImage').length, 3);
});

test('a present image comes back with the ImageStatus read (for the image user); a pulled one without', async () => {
  const { m } = setup();
  const present = container('c', { image: 'present:1', imagePullPolicy: 'IfNotPresent' });
  const r = await m.ensureImageExists(makePod({ containers: [present] }), present);
  assert.ok(r.ok && r.image && r.image.id === r.imageRef && r.image.repoTags.includes('present:1'), JSON.stringify(r));
  const pulled = container('c', { image: 'present:1', imagePullPolicy: 'Always' });
  const p = await m.ensureImageExists(makePod({ containers: [pulled] }), pulled);
  assert.ok(p.ok && p.image === undefined, JSON.stringify(p));
});
