import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstat, mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_DIR, validatePayloadPath, writePayload, type Payload } from './atomic-writer.ts';

const p = (entries: Array<[string, string, number?]>): Payload => new Map(entries.map(([k, v, mode]) => [k, { data: Buffer.from(v), mode: mode ?? 0o644 }]));

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'atomic-writer-'));
  try {
    await fn(join(dir, 'vol'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('validatePayloadPath: the kubelet rules for payload keys', () => {
  const cases: Array<[string, boolean]> = [
    ['a', true],
    ['a/b/c', true],
    ['..a', false],
    ['a/../b', false],
    ['/abs', false],
    ['', false],
    ['a..b', true],
  ];
  for (const [path, ok] of cases) assert.equal(validatePayloadPath(path) === undefined, ok, path);
});

test('writePayload: timestamped dir, ..data symlink, per-key symlinks, modes; unchanged payloads write nothing', async () => {
  await withDir(async (vol) => {
    const r1 = await writePayload(vol, p([['a', 'A', 0o600], ['dir/b', 'B']]), Date.UTC(2026, 10, 22, 6, 40));
    assert.deepEqual(r1, { ok: true, changed: true });
    const ts = await readlink(join(vol, DATA_DIR));
    assert.match(ts, /^\.\.2026_11_22_06_40_00\.\d{9}$/);
    assert.equal(await readlink(join(vol, 'a')), '..data/a');
    assert.equal(await readlink(join(vol, 'dir')), '..data/dir');
    assert.equal(await readFile(join(vol, 'a'), 'utf8'), 'A');
    assert.equal(await readFile(join(vol, 'dir/b'), 'utf8'), 'B');
    assert.equal((await stat(join(vol, 'a'))).mode & 0o777, 0o600);
    assert.equal((await stat(join(vol, 'dir/b'))).mode & 0o777, 0o644);
    const r2 = await writePayload(vol, p([['a', 'A', 0o600], ['dir/b', 'B']]), Date.UTC(2026, 10, 22, 6, 41));
    assert.deepEqual(r2, { ok: true, changed: false });
    assert.equal(await readlink(join(vol, DATA_DIR)), ts);
  });
});

test('writePayload: an update swaps ..data, removes dropped keys and the previous payload dir', async () => {
  const cases: Array<{ name: string; first: Payload; second: Payload; want: string[] }> = [
    { name: 'value change', first: p([['a', '1']]), second: p([['a', '2']]), want: ['a'] },
    { name: 'key removed', first: p([['a', '1'], ['b', '1']]), second: p([['b', '1']]), want: ['b'] },
    { name: 'mode change', first: p([['a', '1', 0o644]]), second: p([['a', '1', 0o400]]), want: ['a'] },
    { name: 'empty payload', first: p([['a', '1']]), second: p([]), want: [] },
  ];
  for (const tc of cases) {
    await withDir(async (vol) => {
      await writePayload(vol, tc.first, 0);
      const old = await readlink(join(vol, DATA_DIR));
      const r = await writePayload(vol, tc.second, 1000);
      assert.deepEqual(r, { ok: true, changed: true }, tc.name);
      const names = (await readdir(vol)).filter((n) => !n.startsWith('..')).sort();
      assert.deepEqual(names, tc.want, tc.name);
      const dirs = (await readdir(vol)).filter((n) => n.startsWith('..') && n !== DATA_DIR);
      assert.equal(dirs.length, 1, `${tc.name}: only the new payload dir is left`);
      assert.notEqual(dirs[0], old, tc.name);
      for (const [k, f] of tc.second) {
        assert.equal(await readFile(join(vol, k), 'utf8'), f.data.toString(), tc.name);
        assert.equal((await stat(join(vol, k))).mode & 0o777, f.mode, tc.name);
      }
      assert.ok((await lstat(join(vol, DATA_DIR))).isSymbolicLink(), tc.name);
    });
  }
});

test('writePayload: an invalid key fails before anything is written', async () => {
  await withDir(async (vol) => {
    const r = await writePayload(vol, p([['ok', '1'], ['../escape', '2']]), 0);
    assert.equal(r.ok, false);
    await assert.rejects(lstat(vol));
  });
});

// The downward API files of upstream "[sig-storage] Downward API volume should update labels on modification"
// (and its annotation / projected twins) are rewritten by this swap when the pod's labels change.
test('writePayload: readers see the old file until the ..data rename, then the new timestamped dir; the old dir goes', async () => {
  await withDir(async (vol) => {
    await writePayload(vol, p([['labels', 'key1="value1"']]), Date.UTC(2026, 10, 26, 2, 0));
    const oldDir = await readlink(join(vol, DATA_DIR));
    let beforeSwap: { labels: string; data: string; dirs: string[] } | undefined;
    // PayloadPerms.apply runs once the new payload is written and before the swap.
    const perms = {
      apply: async (target: string) => {
        const dirs = (await readdir(target)).filter((n) => n.startsWith('..') && n !== DATA_DIR).sort();
        beforeSwap = { labels: await readFile(join(target, 'labels'), 'utf8'), data: await readlink(join(target, DATA_DIR)), dirs };
      },
      fileMode: (m: number) => m,
    };
    const r = await writePayload(vol, p([['labels', 'key1="value1"\nkey3="value3"']]), Date.UTC(2026, 10, 26, 2, 1), perms);
    assert.deepEqual(r, { ok: true, changed: true });
    assert.equal(beforeSwap?.labels, 'key1="value1"', 'the old content is what a reader gets until the rename');
    assert.equal(beforeSwap?.data, oldDir, '..data still points at the old payload dir');
    assert.equal(beforeSwap?.dirs.length, 2, 'the new payload dir is written beside the old one');
    const newDir = await readlink(join(vol, DATA_DIR));
    assert.match(newDir, /^\.\.2026_11_26_02_01_00\.\d{9}$/, '..data points at the new timestamped dir');
    assert.ok(beforeSwap?.dirs.includes(newDir));
    assert.equal(await readlink(join(vol, 'labels')), '..data/labels', 'the user-visible name is the same symlink through ..data');
    assert.equal(await readFile(join(vol, 'labels'), 'utf8'), 'key1="value1"\nkey3="value3"');
    assert.deepEqual((await readdir(vol)).filter((n) => n.startsWith('..')).sort(), [newDir, DATA_DIR].sort(), 'the old dir and ..data_tmp are gone');
  });
});
