// Cgroup files kept open between reads: the content read afresh at offset 0, a removed cgroup's file reopened, unused
// files closed at the sweep, the cap, and the open-files limit read from /proc/self/limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeptOpenFiles, keptOpenLimit, SWEEP_MS } from './kept-open.ts';

const text = (k: KeptOpenFiles, p: string) => {
  const buf = Buffer.alloc(256);
  return buf.toString('utf8', 0, k.read(p, buf));
};

test('a kept file is read afresh from offset 0; the cap keeps no more than max; unused files close at the sweep', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kept-open-'));
  try {
    let now = 0;
    const k = new KeptOpenFiles(1, () => now, 1);
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    writeFileSync(a, '1\n');
    writeFileSync(b, 'b\n');
    assert.equal(text(k, a), '1\n');
    writeFileSync(a, '22\n'); // in place, as the kernel's content changes under a kept fd
    assert.equal(text(k, a), '22\n');
    assert.equal(text(k, b), 'b\n', 'beyond the cap: read, not kept');
    assert.equal(k.size, 1);
    now += SWEEP_MS;
    assert.equal(text(k, b), 'b\n'); // the sweep ran first: a was read since the last one, kept
    assert.equal(k.size, 1);
    now += SWEEP_MS;
    text(k, b); // a was not read in that minute: closed
    assert.equal(k.size, 1);
    rmSync(a);
    assert.throws(() => text(k, a), /ENOENT/, 'a closed file is opened afresh');
    k.close();
    assert.equal(k.size, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const memory = '/sys/fs/cgroup/memory';
const canCgroup = process.getuid?.() === 0 && existsSync(join(memory, 'memory.usage_in_bytes'));

test('a cgroup removed and made again at the same path: its kept file answers ENODEV and the path is opened afresh', { skip: !canCgroup && 'needs root and the cgroup v1 memory hierarchy' }, () => {
  const cg = join(memory, `nodelet-kept-open-${process.pid}`);
  mkdirSync(cg);
  try {
    const k = new KeptOpenFiles(8);
    const limit = join(cg, 'memory.limit_in_bytes');
    writeFileSync(limit, String(64 * 2 ** 20));
    assert.equal(text(k, limit).trim(), String(64 * 2 ** 20));
    rmdirSync(cg); // an open file does not keep a cgroup
    mkdirSync(cg);
    writeFileSync(limit, String(32 * 2 ** 20));
    assert.equal(text(k, limit).trim(), String(32 * 2 ** 20));
    k.close();
  } finally {
    if (existsSync(cg)) rmdirSync(cg);
  }
});

test('a quarter of the soft open-files limit, at most 4096; 0 when the limits cannot be read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kept-open-limits-'));
  try {
    const f = join(dir, 'limits');
    const head = 'Limit                     Soft Limit           Hard Limit           Units     \n';
    writeFileSync(f, `${head}Max open files            1024                 1048576              files     \n`);
    assert.equal(keptOpenLimit(f), 256);
    writeFileSync(f, `${head}Max open files            1048576              1048576              files     \n`);
    assert.equal(keptOpenLimit(f), 4096);
    assert.equal(keptOpenLimit(join(dir, 'absent')), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
