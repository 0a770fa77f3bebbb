import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tarStream from 'tar-stream';
import { applyLayer, cleanName } from './layer-apply.ts';

type Entry = { name: string; type?: tarStream.Header['type']; body?: string; linkname?: string; mode?: number; uid?: number };

/** Builds a tar layer in memory from entries (optionally gzip-compressed) and writes it to `file`. */
async function writeLayer(file: string, entries: Entry[], gzip = false): Promise<void> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c) => chunks.push(c as Buffer));
  const ended = new Promise<void>((r) => pack.on('end', () => r()));
  for (const e of entries) {
    const type = e.type ?? (e.name.endsWith('/') ? 'directory' : 'file');
    const header = { name: e.name, type, mode: e.mode ?? (type === 'directory' ? 0o755 : 0o644), uid: e.uid ?? 0, gid: 0, mtime: new Date(1_000_000_000_000) };
    if (e.linkname !== undefined) Object.assign(header, { linkname: e.linkname });
    await new Promise<void>((res, rej) => pack.entry(header, type === 'file' ? (e.body ?? '') : '', (err) => (err ? rej(err) : res())));
  }
  pack.finalize();
  await ended;
  const tar = Buffer.concat(chunks);
  await fsp.writeFile(file, gzip ? gzipSync(tar) : tar);
}

async function withTmp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'layer-apply-'));
  try {
    await fn(dir);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

const exists = (p: string) => fs.existsSync(p) || fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;

test('applyLayer: whiteouts, opaque dirs, replacements, links (plain + gzip layers)', async () => {
  await withTmp(async (dir) => {
    const rootfs = path.join(dir, 'rootfs');
    await fsp.mkdir(rootfs);
    await writeLayer(path.join(dir, 'l1.tar'), [
      { name: 'a/' }, { name: 'a/f1', body: 'one' }, { name: 'a/b/' }, { name: 'a/b/f2', body: 'two' },
      { name: 'keep/x', body: 'x' }, { name: 'del/y', body: 'y' }, { name: 'topfile', body: 't' },
      { name: 'link', type: 'symlink', linkname: 'keep/x' }, { name: 'hl', type: 'link', linkname: 'keep/x' },
      { name: 'opq/' }, { name: 'opq/old1', body: 'o' }, { name: 'opq/sub/old2', body: 'o' },
      { name: 'suid', body: '#!', mode: 0o4755, uid: 1234 }, { name: 'becomes-dir', body: 'f' },
      { name: './ro/', mode: 0o555 }, { name: './ro/inner', body: 'i', mode: 0o444 },
    ]);
    await writeLayer(path.join(dir, 'l2.tgz'), [
      { name: '.wh.topfile' }, { name: 'del/.wh.y' }, { name: 'opq/new', body: 'n' },
      { name: 'opq/.wh..wh..opq' }, { name: 'a/f1', body: 'one-v2' }, { name: 'becomes-dir/' },
      { name: 'becomes-dir/c', body: 'c' }, { name: '.wh.nothing-there' }, { name: 'nested/deep/file', body: 'd' },
    ], true);
    const r1 = await applyLayer(rootfs, path.join(dir, 'l1.tar'));
    assert.deepEqual(r1, { ok: true, skipped: 0 });
    assert.equal(await fsp.readlink(path.join(rootfs, 'link')), 'keep/x');
    assert.equal(fs.statSync(path.join(rootfs, 'hl')).ino, fs.statSync(path.join(rootfs, 'keep/x')).ino);
    assert.equal(fs.statSync(path.join(rootfs, 'ro')).mode & 0o7777, 0o555);
    const suid = fs.statSync(path.join(rootfs, 'suid'));
    assert.equal(suid.mode & 0o7777, 0o4755);
    if (process.getuid?.() === 0) assert.equal(suid.uid, 1234);

    let bytes = 0;
    const r2 = await applyLayer(rootfs, path.join(dir, 'l2.tgz'), { onBytes: (n) => (bytes = n) });
    assert.equal(r2.ok, true, JSON.stringify(r2));
    assert.equal(bytes, fs.statSync(path.join(dir, 'l2.tgz')).size);
    assert.equal(exists(path.join(rootfs, 'topfile')), false);
    assert.equal(exists(path.join(rootfs, 'del/y')), false);
    assert.equal(exists(path.join(rootfs, 'del')), true);
    assert.deepEqual((await fsp.readdir(path.join(rootfs, 'opq'))).sort(), ['new']);
    assert.equal(await fsp.readFile(path.join(rootfs, 'a/f1'), 'utf8'), 'one-v2');
    assert.equal(await fsp.readFile(path.join(rootfs, 'a/b/f2'), 'utf8'), 'two');
    assert.equal(await fsp.readFile(path.join(rootfs, 'becomes-dir/c'), 'utf8'), 'c');
    assert.equal(await fsp.readFile(path.join(rootfs, 'nested/deep/file'), 'utf8'), 'd');
    assert.equal(await fsp.readFile(path.join(rootfs, 'keep/x'), 'utf8'), 'x');
  });
});

test('applyLayer: refuses to escape the rootfs', async () => {
  await withTmp(async (dir) => {
    const rootfs = path.join(dir, 'rootfs');
    const outside = path.join(dir, 'outside');
    await fsp.mkdir(rootfs);
    await fsp.mkdir(outside);
    await writeLayer(path.join(dir, 'l1.tar'), [{ name: 'esc', type: 'symlink', linkname: outside }]);
    await writeLayer(path.join(dir, 'l2.tar'), [{ name: 'esc/pwned', body: 'p' }]);
    await writeLayer(path.join(dir, 'l3.tar'), [{ name: 'esc/.wh.keep' }]);
    await fsp.writeFile(path.join(outside, 'keep'), 'k');
    assert.equal((await applyLayer(rootfs, path.join(dir, 'l1.tar'))).ok, true);
    const r2 = await applyLayer(rootfs, path.join(dir, 'l2.tar'));
    assert.equal(r2.ok, false);
    assert.match(r2.ok ? '' : r2.message, /symlink/);
    assert.equal(exists(path.join(outside, 'pwned')), false);
    assert.equal((await applyLayer(rootfs, path.join(dir, 'l3.tar'))).ok, true);
    assert.equal(exists(path.join(outside, 'keep')), true, 'whiteout through a symlink must not delete outside');
  });
});

test('cleanName: normalizes member names', () => {
  const table: Array<[string, string | 'throws']> = [
    ['./a/b/', 'a/b'], ['/abs/x', 'abs/x'], ['a//b/./c', 'a/b/c'], ['.', ''], ['./', ''],
    ['a/../b', 'b'], ['../x', 'x'], ['a/../../x', 'x'],
  ];
  for (const [input, want] of table) {
    if (want === 'throws') assert.throws(() => cleanName(input));
    else assert.equal(cleanName(input), want, input);
  }
});

test('applyLayer: zstd and garbage fail as values', async () => {
  await withTmp(async (dir) => {
    const rootfs = path.join(dir, 'rootfs');
    await fsp.mkdir(rootfs);
    await fsp.writeFile(path.join(dir, 'z'), Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0]));
    const z = await applyLayer(rootfs, path.join(dir, 'z'));
    assert.equal(z.ok, false);
    await fsp.writeFile(path.join(dir, 'g'), Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5]));
    assert.equal((await applyLayer(rootfs, path.join(dir, 'g'))).ok, false);
  });
});
