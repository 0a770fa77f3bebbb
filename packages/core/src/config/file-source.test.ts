import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, unlink, mkdir } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../util/clock.ts';
import { FileSource } from './file-source.ts';
import { nodeManifestFs, type ManifestFs } from './manifest-fs.ts';
import { manifest, setupManifestDir } from './testing/manifest-dir.ts';
import type { PodUpdate } from './types.ts';

const setup = setupManifestDir;

test('initial scan: yaml/yml/json files, hidden and other files ignored, sorted', async (t) => {
  const s = await setup(t);
  await writeFile(join(s.dir, 'b.yaml'), manifest('b'));
  await writeFile(join(s.dir, 'a.yml'), manifest('a'));
  await writeFile(join(s.dir, 'c.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'c' }, spec: { containers: [{ name: 'x', image: 'y' }] } }));
  await writeFile(join(s.dir, '.hidden.yaml'), manifest('hidden'));
  await writeFile(join(s.dir, 'notes.txt'), 'hello');
  await mkdir(join(s.dir, 'sub.yaml'));
  await s.src.start();
  assert.equal(s.updates.length, 1);
  assert.equal(s.updates[0]?.op, 'SET');
  assert.equal(s.updates[0]?.source, 'file');
  assert.deepEqual(s.names(), ['a-node1', 'b-node1', 'c-node1']);
  assert.deepEqual(s.errors, []);
});

test('empty or missing directory reports an empty SET (source ready)', async (t) => {
  const s = await setup(t);
  await rm(s.dir, { recursive: true });
  await s.src.start();
  assert.deepEqual(s.updates.map((u) => u.pods.length), [0]);
  assert.deepEqual(s.errors.map((e) => e.message), ['path does not exist, ignoring']);
  await mkdir(s.dir);
  await writeFile(join(s.dir, 'a.yaml'), manifest('a'));
  await s.clock.step(20_000);
  await s.src.whenIdle();
  assert.deepEqual(s.names(), ['a-node1'], 'picked up by the periodic rescan');
});

test('watch events: add, change, remove', async (t) => {
  const s = await setup(t);
  await s.src.start();
  assert.equal(s.ctl.watchers.size, 1);
  await writeFile(join(s.dir, 'a.yaml'), manifest('a'));
  s.ctl.fire();
  await s.src.whenIdle();
  assert.deepEqual(s.names(), ['a-node1']);
  const uid1 = s.updates.at(-1)?.pods[0]?.metadata?.uid;
  await writeFile(join(s.dir, 'a.yaml'), manifest('a', 'busybox:1.36'));
  s.ctl.fire();
  await s.src.whenIdle();
  const uid2 = s.updates.at(-1)?.pods[0]?.metadata?.uid;
  assert.notEqual(uid1, uid2, 'changed content → new UID');
  await unlink(join(s.dir, 'a.yaml'));
  s.ctl.fire();
  s.ctl.fire();
  await s.src.whenIdle();
  assert.deepEqual(s.names(), []);
  const before = s.updates.length;
  s.ctl.fire();
  await s.src.whenIdle();
  assert.equal(s.updates.length, before, 'no change → no new SET');
});

test('watch events delivered together (a burst of manifests written): one rescan of the directory for all of them', async (t) => {
  const s = await setup(t);
  await s.src.start();
  const readdir = s.ctl.fs.readdir.bind(s.ctl.fs);
  let scans = 0;
  s.ctl.fs.readdir = async (dir) => (scans++, readdir(dir));
  for (let i = 0; i < 30; i++) writeFileSync(join(s.dir, `p${i}.yaml`), manifest(`p${i}`));
  for (let i = 0; i < 90; i++) s.ctl.fire(); // three inotify events a write, as fs.watch delivers them
  await s.src.whenIdle();
  assert.equal(scans, 1);
  assert.equal(s.names().length, 30);
  assert.equal(s.updates.length, 2, 'the initial (empty) SET and one with the 30 pods');
});

test('periodic rescan every fileCheckFrequency picks up changes without watch events', async (t) => {
  const s = await setup(t);
  await s.src.start();
  await writeFile(join(s.dir, 'a.yaml'), manifest('a'));
  await s.clock.step(19_999);
  await s.src.whenIdle();
  assert.deepEqual(s.names(), []);
  await s.clock.step(1);
  await s.src.whenIdle();
  assert.deepEqual(s.names(), ['a-node1']);
});

test('a broken file yields no pod and one error naming the file; others untouched; fixed file recovers', async (t) => {
  const s = await setup(t);
  await writeFile(join(s.dir, 'good.yaml'), manifest('good'));
  await writeFile(join(s.dir, 'bad.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: { name: bad }\nspec: { containers: [{ name: App, image: x }] }\n');
  await s.src.start();
  assert.deepEqual(s.names(), ['good-node1']);
  assert.equal(s.errors.length, 1);
  assert.equal(s.errors[0]?.file, join(s.dir, 'bad.yaml'));
  assert.match(s.errors[0]?.message ?? '', /^invalid pod: \[spec\.containers\[0\]\.name: Invalid value: "App"/);
  await s.clock.step(20_000);
  await s.src.whenIdle();
  assert.equal(s.errors.length, 1, 'not re-reported while unchanged');
  await writeFile(join(s.dir, 'bad.yaml'), manifest('bad'));
  s.ctl.fire();
  await s.src.whenIdle();
  assert.deepEqual(s.names(), ['bad-node1', 'good-node1']);
  await writeFile(join(s.dir, 'bad.yaml'), 'kind: [');
  s.ctl.fire();
  await s.src.whenIdle();
  assert.deepEqual(s.names(), ['good-node1']);
  assert.equal(s.errors.length, 2, 'broken again → reported again');
});

test('duplicate namespace/name: the later file is refused, the first keeps running', async (t) => {
  const s = await setup(t);
  await writeFile(join(s.dir, 'b.yaml'), manifest('web'));
  await s.src.start();
  const uid = s.updates.at(-1)?.pods[0]?.metadata?.uid;
  await writeFile(join(s.dir, 'a.yaml'), manifest('web', 'busybox:1.36'));
  await writeFile(join(s.dir, 'c.yaml'), manifest('web', 'busybox:1.37'));
  await writeFile(join(s.dir, 'd.yaml'), manifest('web', 'busybox:1.37', 'other'));
  s.ctl.fire();
  await s.src.whenIdle();
  const pods = s.updates.at(-1)?.pods ?? [];
  assert.deepEqual(pods.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`), ['default/web-node1', 'other/web-node1']);
  assert.equal(pods[0]?.metadata?.uid, uid, 'the running pod (b.yaml) keeps its place');
  assert.deepEqual(s.errors.map((e) => e.message), [
    'pod default/web-node1 from file a.yaml duplicates the pod from file b.yaml',
    'pod default/web-node1 from file c.yaml duplicates the pod from file b.yaml',
  ]);
  assert.deepEqual(s.errors[0]?.pod, { namespace: 'default', name: 'web-node1' });
});

test('duplicates at first scan: first file by name wins', async (t) => {
  const s = await setup(t);
  await writeFile(join(s.dir, 'z.yaml'), manifest('web'));
  await writeFile(join(s.dir, 'm.yaml'), manifest('web'));
  await s.src.start();
  assert.equal(s.updates.at(-1)?.pods.length, 1);
  assert.deepEqual(s.errors.map((e) => e.message), ['pod default/web-node1 from file z.yaml duplicates the pod from file m.yaml']);
});

test('a single manifest file as path', async (t) => {
  const s = await setup(t);
  const file = join(s.dir, 'only.yaml');
  await writeFile(file, manifest('only'));
  const updates: PodUpdate[] = [];
  const src = new FileSource({ clock: s.clock, fs: s.ctl.fs, onUpdate: (u) => updates.push(u) }, { path: file, nodeName: 'node1' });
  await src.start();
  await src.stop();
  assert.deepEqual(updates[0]?.pods.map((p) => p.metadata?.name), ['only-node1']);
});

test('stop cancels the rescan timer and the watcher', async (t) => {
  const s = await setup(t);
  await s.src.start();
  assert.equal(s.clock.pending(), 1);
  await s.src.stop();
  await s.src.stop();
  assert.equal(s.clock.pending(), 0);
  assert.equal(s.ctl.watchers.size, 0);
});

test('default node fs: real watcher starts and stops cleanly', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.yaml'), manifest('a'));
  const updates: PodUpdate[] = [];
  const src = new FileSource({ clock: new FakeClock(), onUpdate: (u) => updates.push(u) }, { path: dir, nodeName: 'n' });
  const ac = new AbortController();
  await src.start(ac.signal);
  ac.abort();
  await src.whenIdle();
  assert.deepEqual(updates[0]?.pods.map((p) => p.metadata?.name), ['a-n']);
});

test('default node fs: a real fs.watch event triggers a rescan (no clock step)', { timeout: 10_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  let seen: (names: string[]) => void = () => {};
  const src = new FileSource(
    { clock: new FakeClock(), onUpdate: (u) => seen(u.pods.map((p) => p.metadata?.name ?? '')) },
    { path: dir, nodeName: 'n' },
  );
  t.after(async () => {
    await src.stop();
    await rm(dir, { recursive: true, force: true });
  });
  await src.start();
  const added = new Promise<string[]>((resolve) => (seen = resolve));
  await writeFile(join(dir, 'w.yaml'), manifest('w'));
  assert.deepEqual(await added, ['w-n']);
});

test('an unchanged file (same stat version) is not read again at the next scan; a changed one is', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.yaml'), manifest('a'));
  const reads: string[] = [];
  const fs: ManifestFs = { ...nodeManifestFs, readFile: (p) => (reads.push(p), nodeManifestFs.readFile(p)) };
  const clock = new FakeClock();
  const updates: PodUpdate[] = [];
  const src = new FileSource({ clock, fs, onUpdate: (u) => updates.push(u) }, { path: dir, nodeName: 'n' });
  t.after(() => src.stop());
  await src.start();
  await clock.step(20_000);
  await src.whenIdle();
  assert.equal(reads.length, 1);
  // Written in one go (no scan can run between the open and the write): the file watch must not see it half written.
  writeFileSync(join(dir, 'a.yaml'), manifest('a', 'busybox:1.36'));
  await clock.step(20_000);
  await src.whenIdle();
  assert.equal(reads.length, 2);
  assert.equal(updates.at(-1)?.pods[0]?.spec?.containers[0]?.image, 'busybox:1.36');
});
