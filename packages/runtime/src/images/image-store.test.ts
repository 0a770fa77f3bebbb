import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { HOST_IMAGE_ID } from './host-image.ts';
import { ImageStore } from './image-store.ts';
import { diskUsage } from './store-index.ts';
import { buildBusyboxOciLayout, saveDockerArchive, saveOciArchive, type BusyboxLayout } from './testing/build-busybox.ts';
import type { ImageLogger } from './types.ts';

const quiet: ImageLogger = { debug() {}, info() {}, warn() {}, error() {} };
let work: string;
let img: BusyboxLayout;

before(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'image-store-'));
  img = await buildBusyboxOciLayout(path.join(work, 'build'));
});
after(async () => {
  await fsp.rm(work, { recursive: true, force: true });
});

async function newStore(name: string): Promise<ImageStore> {
  const s = new ImageStore({ rootDir: path.join(work, name), logger: quiet }, {});
  await s.init();
  return s;
}

test('host image: always listed, pinned, rootfs /, PATH env, not removable', async () => {
  const s = await newStore('host');
  const list = s.list();
  assert.equal(list.length, 1);
  assert.deepEqual(list[0], { id: HOST_IMAGE_ID, repoTags: ['nodelet.local/host:latest'], repoDigests: [], size: 0, pinned: true });
  for (const ref of ['nodelet.local/host', 'nodelet.local/host:latest', HOST_IMAGE_ID]) {
    assert.equal(s.status(ref)?.id, HOST_IMAGE_ID, ref);
    assert.equal(s.rootfsOf(ref), '/');
  }
  assert.deepEqual(s.config(HOST_IMAGE_ID)?.env, ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']);
  assert.deepEqual(s.config(HOST_IMAGE_ID)?.cmd, []);
  assert.deepEqual(s.config(HOST_IMAGE_ID)?.entrypoint, []);
  assert.equal(await s.remove('nodelet.local/host'), false);
  assert.equal(await s.remove(HOST_IMAGE_ID), false);
  assert.equal(s.status('nodelet.local/host')?.pinned, true);
  const pulled = await s.pull('nodelet.local/host');
  assert.equal(pulled.ok && pulled.image.id, HOST_IMAGE_ID);
  assert.equal(s.status('busybox'), undefined);
  assert.equal(s.rootfsOf('sha256:' + 'f'.repeat(64)), undefined);
});

function checkBusybox(s: ImageStore, id: string): void {
  const rootfs = s.rootfsOf(id);
  assert.ok(rootfs !== undefined && rootfs !== '/');
  assert.ok(fs.statSync(path.join(rootfs, 'bin/busybox')).isFile());
  assert.equal(fs.readlinkSync(path.join(rootfs, 'bin/sh')), 'busybox');
  assert.match(fs.readFileSync(path.join(rootfs, 'etc/passwd'), 'utf8'), /^root:x:0:0/);
  assert.deepEqual(s.config(id)?.cmd, ['sh']);
}

test('importArchive: OCI layout dir, docker-archive and OCI archive of one image share one id', async () => {
  const s = await newStore('import');
  const fromLayout = await s.importArchive(img.layout);
  assert.ok(fromLayout.ok, JSON.stringify(fromLayout));
  const [first] = fromLayout.images;
  assert.ok(first);
  assert.deepEqual(first.repoTags, ['docker.io/library/busybox:latest']);
  assert.match(first.id, /^sha256:[a-f0-9]{64}$/);
  checkBusybox(s, first.id);

  const dockerTar = await saveDockerArchive(img, path.join(work, 'busybox-docker.tar'), 'localhost/busybox:latest');
  const fromDocker = await s.importArchive(dockerTar);
  assert.ok(fromDocker.ok, JSON.stringify(fromDocker));
  assert.equal(fromDocker.images[0]?.id, first.id);
  const ociTar = await saveOciArchive(img, path.join(work, 'busybox-oci.tar'), 'example.com/tools/busybox:1.35');
  const fromOci = await s.importArchive(ociTar, { tag: 'localhost/extra:v1' });
  assert.ok(fromOci.ok, JSON.stringify(fromOci));
  assert.equal(fromOci.images[0]?.id, first.id);

  assert.equal(s.list().length, 2);
  assert.deepEqual(s.status('busybox')?.repoTags.sort(), [
    'docker.io/library/busybox:latest', 'example.com/tools/busybox:1.35', 'localhost/busybox:latest', 'localhost/extra:v1',
  ]);
  for (const ref of ['localhost/busybox', first.id, first.id.slice(7), first.id.slice(7, 19)]) {
    assert.equal(s.status(ref)?.id, first.id, ref);
  }
  assert.ok(s.fsInfo().usedBytes > 1_000_000);
  assert.ok(s.fsInfo().inodesUsed > 10);
});

test('importArchive: bad inputs are values', async () => {
  const s = await newStore('bad');
  const missing = await s.importArchive(path.join(work, 'nope.tar'));
  assert.equal(!missing.ok && missing.reason, 'NotFound');
  const junk = path.join(work, 'junk.tar');
  await fsp.writeFile(junk, 'not a tar');
  const bad = await s.importArchive(junk);
  assert.equal(!bad.ok && bad.reason, 'Invalid');
  const emptyDir = path.join(work, 'empty');
  await fsp.mkdir(emptyDir, { recursive: true });
  const none = await s.importArchive(emptyDir);
  assert.equal(!none.ok && none.reason, 'Invalid');
  assert.equal(s.list().length, 1);
  const shadow = await s.importArchive(img.layout, { tag: 'nodelet.local/host' });
  assert.ok(shadow.ok);
  assert.deepEqual(shadow.images[0]?.repoTags, ['docker.io/library/busybox:latest']);
  assert.equal(s.status('nodelet.local/host')?.id, HOST_IMAGE_ID);
});

test('index survives a restart; remove by one tag removes every tag, rootfs and blobs', async () => {
  const s1 = await newStore('restart');
  const r = await s1.importArchive(img.layout, { tag: 'localhost/second:latest' });
  assert.ok(r.ok);
  const id = r.images[0]!.id;
  const rootfs = s1.rootfsOf(id)!;
  s1.touch(id);

  const s2 = new ImageStore({ rootDir: path.join(work, 'restart'), logger: quiet });
  await s2.init();
  assert.deepEqual(s2.list().map((i) => i.id), [HOST_IMAGE_ID, id]);
  assert.deepEqual(s2.status('busybox')?.repoTags, ['docker.io/library/busybox:latest', 'localhost/second:latest']);
  checkBusybox(s2, id);

  assert.equal(await s2.remove('localhost/second'), true);
  assert.equal(s2.status('busybox'), undefined);
  assert.equal(s2.status(id), undefined);
  assert.equal(fs.existsSync(rootfs), false);
  assert.equal(await s2.remove('busybox'), false);
  assert.deepEqual(s2.list().map((i) => i.id), [HOST_IMAGE_ID]);
  await assertFsInfoIsWalk(s2, path.join(work, 'restart'));
  assert.deepEqual(await fsp.readdir(path.join(work, 'restart', 'blobs', 'sha256')), []);
});

test('init: a corrupt index is moved aside and the store starts empty; leftovers are cleaned', async () => {
  const root = path.join(work, 'corrupt');
  await fsp.mkdir(path.join(root, 'rootfs', 'a'.repeat(64)), { recursive: true });
  await fsp.mkdir(path.join(root, 'blobs', 'sha256'), { recursive: true });
  await fsp.writeFile(path.join(root, 'blobs', 'sha256', 'b'.repeat(64)), 'orphan');
  await fsp.writeFile(path.join(root, 'index.json'), '{"version":1,"images":[');
  const s = new ImageStore({ rootDir: root, logger: quiet, now: () => 42 });
  await s.init();
  assert.equal(s.list().length, 1);
  assert.equal(fs.existsSync(path.join(root, 'index.json.corrupt-42')), true);
  assert.deepEqual(await fsp.readdir(path.join(root, 'rootfs')), []);
  assert.deepEqual(await fsp.readdir(path.join(root, 'blobs', 'sha256')), []);
  assert.equal(s.fsInfo().mountpoint, root);
  await assertFsInfoIsWalk(s, root);
});

/** ImageFsInfo's usage equals a disk walk of the store (allocated blocks, inodes). */
async function assertFsInfoIsWalk(s: ImageStore, root: string): Promise<void> {
  const walk = await diskUsage(root);
  const info = s.fsInfo();
  assert.deepEqual({ bytes: info.usedBytes, inodes: info.inodesUsed }, walk, 'fsInfo vs a walk of the store');
}

test('sizes: ListImages size is what RemoveImage frees; fsInfo matches a walk after each step', async () => {
  const root = path.join(work, 'sizes');
  const s = await newStore('sizes');
  await assertFsInfoIsWalk(s, root);
  const filler = path.join(work, 'filler');
  await fsp.writeFile(filler, Buffer.alloc(3 * 1048576, 7)); // compresses well: the unpacked copy dominates
  const big = await buildBusyboxOciLayout(path.join(work, 'build-big'), { extraFiles: [{ from: filler, to: '/filler' }] });
  const steps = [
    { layout: img.layout, tag: 'localhost/small:v1' },
    { layout: big.layout, tag: 'localhost/big:v1' },
  ];
  for (const st of steps) {
    const r = await s.importArchive(st.layout, { tag: st.tag });
    assert.ok(r.ok, JSON.stringify(r));
    await assertFsInfoIsWalk(s, root);
  }
  const bigRec = s.status('localhost/big:v1')!;
  const blobBytes = bigRec.size - (await diskUsage(s.rootfsOf(bigRec.id)!)).bytes;
  assert.ok(bigRec.size > 4 * 1048576 && blobBytes < 2 * 1048576, `size ${bigRec.size} counts the unpacked rootfs, not only the compressed blobs (${blobBytes})`);
  for (const tag of ['localhost/big:v1', 'localhost/small:v1']) {
    const size = s.status(tag)!.size;
    const before = (await diskUsage(root)).bytes;
    assert.equal(await s.remove(tag), true);
    const freed = before - (await diskUsage(root)).bytes;
    assert.ok(Math.abs(freed - size) <= 8192, `${tag}: size ${size} vs freed ${freed} (index.json may change by a block)`);
    await assertFsInfoIsWalk(s, root);
  }
});
