// One bad manifest never freezes the directory: wrong-typed, unreadable, special or dangling entries are
// reported (or logged, as the kubelet does for entries it cannot stat) while every other file keeps syncing.
// Symlinked manifests are followed as the kubelet's os.Stat does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../util/clock.ts';
import { FileSource } from './file-source.ts';
import { nodeManifestFs, type ManifestFs } from './manifest-fs.ts';
import { manifest, setupManifestDir } from './testing/manifest-dir.ts';
import type { PodUpdate, SourceError } from './types.ts';

const WRONG_TYPED = 'apiVersion: v1\nkind: Pod\nmetadata: {name: wrong}\nspec:\n  containers: "notalist"\n';
const BAD_PORTS = 'apiVersion: v1\nkind: Pod\nmetadata: {name: ports}\nspec:\n  containers:\n  - name: app\n    image: busybox\n    ports: abc\n';

test('a wrong-typed manifest beside a good one: the good pod is admitted, updated and removed while the bad file stays', async (t) => {
  const s = await setupManifestDir(t);
  await writeFile(join(s.dir, 'a-wrong.yaml'), WRONG_TYPED);
  await writeFile(join(s.dir, 'b-ports.yaml'), BAD_PORTS);
  await writeFile(join(s.dir, 'c-good.yaml'), manifest('good'));
  await s.src.start();
  assert.deepEqual(s.names(), ['good-node1'], 'admitted');
  const uid1 = s.updates.at(-1)?.pods[0]?.metadata?.uid;
  assert.deepEqual(
    s.errors.map((e) => [e.file, e.message]),
    [
      [join(s.dir, 'a-wrong.yaml'), 'invalid pod: [spec.containers: Invalid value: "string": spec.containers in body must be of type array: "string"]'],
      [join(s.dir, 'b-ports.yaml'), 'invalid pod: [spec.containers[0].ports: Invalid value: "string": spec.containers[0].ports in body must be of type array: "string"]'],
    ],
  );
  assert.ok(s.log.records.some((r) => r.msg === 'could not process manifest file' && r.path === join(s.dir, 'a-wrong.yaml')), 'a structured log line names the file');

  await writeFile(join(s.dir, 'c-good.yaml'), manifest('good', 'busybox:1.36'));
  await s.rescan();
  assert.deepEqual(s.names(), ['good-node1']);
  assert.notEqual(s.updates.at(-1)?.pods[0]?.metadata?.uid, uid1, 'updated');
  assert.equal(s.updates.at(-1)?.pods[0]?.spec?.containers[0]?.image, 'busybox:1.36');

  await writeFile(join(s.dir, 'd-late.yaml'), manifest('late'));
  await s.clock.step(20_000);
  await s.src.whenIdle();
  assert.deepEqual(s.names(), ['good-node1', 'late-node1'], 'the periodic rescan still runs');

  await unlink(join(s.dir, 'c-good.yaml'));
  await s.rescan();
  assert.deepEqual(s.names(), ['late-node1'], 'removed');
  assert.equal(s.errors.length, 2, 'the unchanged bad files are not re-reported');
});

test('symlinked manifests are followed; dangling links and links to directories are skipped with a log line', async (t) => {
  const s = await setupManifestDir(t);
  const outside = await mkdtemp(join(tmpdir(), 'nodelet-manifest-targets-'));
  t.after(() => rm(outside, { recursive: true, force: true }));
  await writeFile(join(outside, 'web.yaml'), manifest('linked'));
  await mkdir(join(outside, 'adir'));
  await symlink(join(outside, 'web.yaml'), join(s.dir, 'linked.yaml'));
  await symlink(join(outside, 'missing.yaml'), join(s.dir, 'dangling.yaml'));
  await symlink(join(outside, 'adir'), join(s.dir, 'dirlink.yaml'));
  await symlink(join(outside, 'web.yaml'), join(s.dir, '.hidden-link.yaml'));
  await writeFile(join(s.dir, 'plain.yaml'), manifest('plain'));
  await s.src.start();
  assert.deepEqual(s.names(), ['linked-node1', 'plain-node1']);
  assert.deepEqual(s.errors, [], 'skipped entries are logged, not reported as manifest errors (as the kubelet)');
  const logged = (path: string) => s.log.records.filter((r) => r.path === path).map((r) => r.msg);
  assert.deepEqual(logged(join(s.dir, 'dangling.yaml')), ['Could not get metadata: no such file or directory (dangling symlink?)']);
  assert.deepEqual(logged(join(s.dir, 'dirlink.yaml')), ['Provided manifest path is a directory, not recursing into manifest path']);
  assert.deepEqual(logged(join(s.dir, '.hidden-link.yaml')), [], 'hidden entries are ignored silently');

  await s.rescan();
  assert.equal(logged(join(s.dir, 'dangling.yaml')).length, 1, 'logged once while unchanged');
  await writeFile(join(outside, 'web.yaml'), manifest('linked', 'busybox:1.36'));
  await writeFile(join(outside, 'missing.yaml'), manifest('healed'));
  await s.rescan();
  assert.deepEqual(s.names(), ['healed-node1', 'linked-node1', 'plain-node1'], 'a changed target and a healed link are picked up');
  assert.equal(s.updates.at(-1)?.pods.find((p) => p.metadata?.name === 'linked-node1')?.spec?.containers[0]?.image, 'busybox:1.36');
});

test('a FIFO named like a manifest is skipped without blocking the scan', async (t) => {
  const s = await setupManifestDir(t);
  execFileSync('mkfifo', [join(s.dir, 'pipe.yaml')]);
  await writeFile(join(s.dir, 'web.yaml'), manifest('web'));
  await s.src.start();
  assert.deepEqual(s.names(), ['web-node1']);
  assert.ok(s.log.records.some((r) => r.path === join(s.dir, 'pipe.yaml') && r.msg === 'Manifest path is not a directory or file'));
});

test('an unreadable manifest is reported and the others still sync', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'secret.yaml'), manifest('secret'));
  await writeFile(join(dir, 'web.yaml'), manifest('web'));
  const denied: ManifestFs = {
    ...nodeManifestFs,
    readFile: (path) =>
      path.endsWith('secret.yaml')
        ? Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' }))
        : nodeManifestFs.readFile(path),
  };
  const updates: PodUpdate[] = [];
  const errors: SourceError[] = [];
  const src = new FileSource({ clock: new FakeClock(), fs: denied, onUpdate: (u) => updates.push(u), onError: (e) => errors.push(e) }, { path: dir, nodeName: 'n' });
  t.after(() => src.stop());
  await src.start();
  assert.deepEqual(updates.at(-1)?.pods.map((p) => p.metadata?.name), ['web-n']);
  assert.deepEqual(errors.map((e) => e.message), [`could not read manifest file: EACCES: permission denied, open '${join(dir, 'secret.yaml')}'`]);
});

test('a throwing onError listener does not stop the scan', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.yaml'), WRONG_TYPED);
  await writeFile(join(dir, 'b.yaml'), manifest('b'));
  const updates: PodUpdate[] = [];
  const src = new FileSource(
    { clock: new FakeClock(), onUpdate: (u) => updates.push(u), onError: () => { throw new Error('listener bug'); } },
    { path: dir, nodeName: 'n' },
  );
  t.after(() => src.stop());
  await src.start();
  assert.deepEqual(updates.at(-1)?.pods.map((p) => p.metadata?.name), ['b-n']);
});

test('two manifests with the same metadata.uid: the later file is refused, the running pod keeps it', async (t) => {
  const s = await setupManifestDir(t);
  const withUid = (name: string) => manifest(name).replace(`  name: ${name}\n`, `  name: ${name}\n  uid: shared-uid\n`);
  await writeFile(join(s.dir, 'b.yaml'), withUid('first'));
  await s.src.start();
  await writeFile(join(s.dir, 'a.yaml'), withUid('second'));
  await s.rescan();
  assert.deepEqual(s.names(), ['first-node1']);
  assert.deepEqual(s.errors.map((e) => e.message), ['pod default/second-node1 from file a.yaml has the metadata.uid of the pod from file b.yaml']);
  await unlink(join(s.dir, 'b.yaml'));
  await s.rescan();
  assert.deepEqual(s.names(), ['second-node1'], 'free again once the owner is gone');
});

test('a manifest path that is neither a directory nor a file is reported once, not at every scan', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  const clock = new FakeClock();
  const errors: SourceError[] = [];
  const updates: PodUpdate[] = [];
  const src = new FileSource({ clock, onUpdate: (u) => updates.push(u), onError: (e) => errors.push(e) }, { path: join(dir, 'pipe'), nodeName: 'n' });
  t.after(() => src.stop());
  await src.start();
  await clock.step(20_000);
  await src.whenIdle();
  assert.deepEqual(errors.map((e) => e.message), ['path is not a directory or file']);
  assert.deepEqual(updates.map((u) => u.pods.length), [0], 'an empty set: the source is ready');
});
