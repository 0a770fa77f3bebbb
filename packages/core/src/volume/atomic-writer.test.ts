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
