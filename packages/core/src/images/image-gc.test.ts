import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { CriError } from '../cri/types.ts';
import { DEFAULT_IMAGE_GC_POLICY, ImageGcManager, type ImageGcPolicy } from './image-gc.ts';

const MB = 1_000_000;

async function setup(policy: Partial<ImageGcPolicy> = {}) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock });
  const fs = { capacityBytes: 100 * MB, availableBytes: 50 * MB };
  const counted: string[] = [];
  const events: string[] = [];
  const gc = new ImageGcManager(
    { cri, clock, logger: nullLogger, imageFs: async () => ({ ...fs }), countRemoved: (r) => counted.push(r), event: (t, r, m) => events.push(`${t} ${r} ${m}`) },
    { ...DEFAULT_IMAGE_GC_POLICY, ...policy },
  );
  const useImage = async (image: string) => {
    const sb = await cri.runPodSandbox({ config: { metadata: { name: `p-${image}`, uid: `u-${image}`, namespace: 'default' } } });
    const labels = { 'io.kubernetes.pod.namespace': 'default', 'io.kubernetes.pod.name': `p-${image}` };
    await cri.createContainer({ podSandboxId: sb.podSandboxId, config: { metadata: { name: 'c' }, image: { image }, labels } });
  };
  return { clock, cri, fs, counted, events, gc, useImage };
}

test('deleteUnusedImages: unused images past min age removed; in-use, young and host image kept', async () => {
  const w = await setup();
  w.cri.addImage('old-unused', 10 * MB);
  w.cri.addImage('old-used', 10 * MB);
  await w.useImage('old-used');
  await w.gc.deleteUnusedImages();
  await w.clock.step(60_000);
  w.cri.addImage('young', 5 * MB);
  await w.clock.step(60_000);
  const r = await w.gc.deleteUnusedImages();
  assert.deepEqual(r.removed, ['old-unused:latest']);
  assert.equal(r.freedBytes, 10 * MB);
  assert.ok(w.cri.findImage('old-used') && w.cri.findImage('young') && w.cri.findImage('nodelet.local/host:latest'));
  assert.deepEqual(w.counted, ['space']);
});

test('garbageCollect: thresholds table (LRU order, stop at the low threshold)', async () => {
  const cases: Array<{ name: string; available: number; want: string[]; failed?: boolean }> = [
    { name: 'below high threshold: nothing', available: 20 * MB, want: [] },
    { name: 'at 85%: free to 80% = 5MB → the least recently used image only', available: 15 * MB, want: ['lru-c:latest'] },
    { name: 'at 90%: free 10MB → two images', available: 10 * MB, want: ['lru-c:latest', 'lru-b:latest'] },
    { name: 'at 99%: not enough eligible → ImageGCFailed', available: 1 * MB, want: ['lru-a:latest', 'lru-b:latest', 'lru-c:latest'], failed: true },
  ];
  for (const c of cases) {
    const w = await setup();
    for (const name of ['lru-c', 'lru-b', 'lru-a']) {
      w.cri.addImage(name, 6 * MB);
      await w.gc.deleteUnusedImages('detect');
      await w.clock.step(1_000);
    }
    // Never used: last used = first detected, so c (seen first) is the least recently used.
    await w.clock.step(200_000);
    w.fs.availableBytes = c.available;
    const r = await w.gc.garbageCollect();
    assert.deepEqual(r.removed.sort(), [...c.want].sort(), c.name);
    assert.equal(w.events.some((e) => e.startsWith('Warning ImageGCFailed')), !!c.failed, c.name);
  }
});

test('garbageCollect: least recently used goes first', async () => {
  const w = await setup();
  w.cri.addImage('a', 6 * MB);
  w.cri.addImage('b', 6 * MB);
  await w.useImage('b');
  await w.gc.garbageCollect();
  await w.clock.step(300_000);
  // b's container goes away: b was last used now, a at first detection (5 min ago).
  for (const c of [...w.cri.containers.keys()]) await w.cri.removeContainer({ containerId: c });
  await w.gc.garbageCollect();
  await w.clock.step(300_000);
  w.fs.availableBytes = 14 * MB;
  const r = await w.gc.garbageCollect();
  assert.deepEqual(r.removed, ['a:latest']);
});

test('garbageCollect: imageMaximumGCAge removes images unused for longer, regardless of disk', async () => {
  const w = await setup({ maxAgeMs: 600_000 });
  w.cri.addImage('stale', MB);
  w.cri.addImage('kept', MB);
  await w.useImage('kept');
  await w.gc.garbageCollect();
  await w.clock.step(600_001);
  const r = await w.gc.garbageCollect();
  assert.deepEqual(r.removed, ['stale:latest']);
  assert.deepEqual(w.counted, ['age']);
});

test('an image that disappears under the GC counts as gone; other errors are reported', async () => {
  const w = await setup({ minAgeMs: 0 });
  w.cri.addImage('vanishing', MB);
  w.cri.addImage('stuck', MB);
  const orig = w.cri.removeImage.bind(w.cri);
  w.cri.removeImage = async (req, o) => {
    const img = w.cri.findImage(req.image?.image ?? '');
    if (img?.repoTags.includes('vanishing:latest')) throw new CriError('NOT_FOUND', 'image not found');
    if (img?.repoTags.includes('stuck:latest')) throw new CriError('UNKNOWN', 'image is in use');
    return orig(req, o);
  };
  const r = await w.gc.deleteUnusedImages();
  assert.deepEqual(r.removed, ['vanishing:latest']);
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0] ?? '', /^stuck:latest/);
});

test('concurrent requests join the running GC', async () => {
  const w = await setup({ minAgeMs: 0 });
  w.cri.addImage('x', MB);
  const [a, b] = await Promise.all([w.gc.deleteUnusedImages(), w.gc.deleteUnusedImages()]);
  assert.equal(a, b);
  assert.equal(w.cri.calls.filter((c) => c.method === 'removeImage').length, 1);
});

test('the runtime\'s sandbox image (CRI Status verbose info, not pinned by containerd 1.6) is never removed', async () => {
  const cases: Array<{ name: string; info: Record<string, string>; want: string[] }> = [
    { name: 'named by the runtime: kept', info: { config: JSON.stringify({ sandboxImage: 'localhost/pause' }) }, want: ['app:latest'] },
    { name: 'not named: removed like any unused image', info: {}, want: ['localhost/pause:latest', 'app:latest'] },
  ];
  for (const c of cases) {
    const w = await setup({ minAgeMs: 0 });
    const status = w.cri.status.bind(w.cri);
    w.cri.status = async (req, o) => ({ ...(await status(req, o)), info: c.info });
    w.cri.addImage('localhost/pause', 1 * MB);
    await w.clock.step(1_000);
    w.cri.addImage('app', 1 * MB);
    const r = await w.gc.deleteUnusedImages();
    assert.deepEqual(r.removed, c.want, c.name);
  }
});

test('inventory: what the next periodic GC and a manual GC would remove is what they then remove', async () => {
  for (const available of [20 * MB, 15 * MB, 10 * MB]) {
    const w = await setup();
    for (const name of ['lru-c', 'lru-b', 'lru-a']) {
      w.cri.addImage(name, 6 * MB);
      await w.gc.deleteUnusedImages('detect');
      await w.clock.step(1_000);
    }
    w.cri.addImage('used', 6 * MB);
    await w.useImage('used');
    await w.clock.step(200_000);
    w.cri.addImage('young', 6 * MB);
    w.fs.availableBytes = available;
    const inv = await w.gc.inventory();
    const tag = (i: { tags: string[] }) => i.tags[0] ?? '';
    const next = inv.images.filter((i) => i.nextGc.remove).map(tag).sort();
    const manual = inv.images.filter((i) => i.manualGc.remove).map(tag).sort();
    assert.equal(inv.running, false);
    assert.equal(w.cri.calls.filter((c) => c.method === 'removeImage').length, 0, 'the inventory removes nothing');
    const used = inv.images.find((i) => tag(i) === 'used:latest')!;
    assert.deepEqual(used.pods, ['default/p-used']);
    assert.equal(used.nextGc.why, 'in use by a container');
    assert.match(inv.images.find((i) => tag(i) === 'young:latest')!.manualGc.why, /younger than imageMinimumGCAge/);
    assert.equal(inv.images.find((i) => tag(i) === 'nodelet.local/host:latest')!.pinned, true);
    assert.deepEqual(next, (await w.gc.garbageCollect()).removed.sort(), `periodic at ${available / MB} MB available`);
    assert.deepEqual(manual.filter((t) => !next.includes(t)), (await w.gc.deleteUnusedImages()).removed.sort(), 'manual');
  }
});

test('running() is true while an image GC runs', async () => {
  const w = await setup({ minAgeMs: 0 });
  w.cri.addImage('x', MB);
  const run = w.gc.deleteUnusedImages();
  assert.equal(w.gc.running(), true);
  assert.equal((await w.gc.inventory()).running, true);
  await run;
  assert.equal(w.gc.running(), false);
});
