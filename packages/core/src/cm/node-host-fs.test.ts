import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import fc from 'fast-check';
import { createNodeHostFs, normalPath, readPseudoSync } from './node-host-fs.ts';

test('procfs/sysfs reads answer without a thread-pool round trip; errors and other paths are as before', async (t) => {
  const fs = createNodeHostFs();
  let read: string | undefined;
  void fs.readFile('/proc/self/../self/stat').then((s) => (read = s));
  await Promise.resolve(); // one microtask turn: a promise read (open/fstat/read/close) cannot have finished yet
  assert.match(read ?? '', new RegExp(`^${process.pid} \\(`));
  const fds = await fs.readdir('/proc/self/fd');
  assert.ok(fds.some((e) => e.name === '0' && !e.dir));
  await assert.rejects(fs.readFile('/proc/self/no-such-file'), { code: 'ENOENT' });
  await assert.rejects(fs.readdir('/sys/no-such-dir'), { code: 'ENOENT' });

  const dir = mkdtempSync(join(tmpdir(), 'nodelet-hostfs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'f'), 'x');
  assert.equal(await fs.readFile(join(dir, 'f')), 'x');
  // A fixture root re-roots /proc: the path is a plain file under the root then, read as any other.
  const rooted = createNodeHostFs({ root: dir });
  await assert.rejects(rooted.readFile('/proc/self/stat'), { code: 'ENOENT' });
});

test('procfs/sysfs writes and mkdirs are made without a thread-pool round trip (a pod cgroup before its sandbox); others as before', async (t) => {
  const fs = createNodeHostFs();
  const comm = readFileSync('/proc/self/comm', 'utf8').trim();
  t.after(() => writeFileSync('/proc/self/comm', comm));
  const written = fs.writeFile('/proc/self/comm', 'nodelet-hostfs');
  // Not awaited: a promise write (open/write/close on the pool) has not even opened the file yet.
  assert.equal(readFileSync('/proc/self/comm', 'utf8').trim(), 'nodelet-hostfs');
  await written;
  await assert.rejects(fs.mkdir('/proc/self/no-dirs-here'), { code: 'ENOENT' });
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-hostfs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await fs.mkdir(join(dir, 'a/b'));
  await fs.writeFile(join(dir, 'a/b/f'), 'y');
  assert.equal(readFileSync(join(dir, 'a/b/f'), 'utf8'), 'y');
});

test('readPseudoSync: a pseudo-file whole, as readFileSync reads it; content beyond one 64 KiB read too', (t) => {
  for (const p of ['/proc/self/status', '/proc/self/mountinfo', '/proc/meminfo']) {
    const a = readPseudoSync(p);
    assert.ok(a.length > 0, p);
    assert.equal(a.split('\n')[0], readFileSync(p, 'utf8').split('\n')[0], p);
  }
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-hostfs-big-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const big = 'x'.repeat(200_000) + '\n';
  writeFileSync(join(dir, 'big'), big);
  assert.equal(readPseudoSync(join(dir, 'big')), big);
  assert.throws(() => readPseudoSync(join(dir, 'absent')), { code: 'ENOENT' });
});

test('readPseudoInto: a pseudo-file\'s bytes into the caller\'s buffer; a full buffer says it may go on; errors as readFile', (t) => {
  const fs = createNodeHostFs();
  const buf = Buffer.alloc(64 * 1024);
  const n = fs.readPseudoInto?.('/sys/../proc/self/status', buf) ?? -1;
  assert.ok(n > 0 && n < buf.length);
  assert.equal(buf.toString('utf8', 0, n).split('\n')[0], readFileSync('/proc/self/status', 'utf8').split('\n')[0]);
  assert.equal(fs.readPseudoInto?.('/proc/self/status', Buffer.alloc(16)), 16, 'longer than the buffer: its length');
  assert.throws(() => fs.readPseudoInto?.('/proc/self/absent', buf), { code: 'ENOENT' });
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-hostfs-into-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'x'), '42\n');
  const rooted = createNodeHostFs({ root: dir });
  assert.equal(rooted.readPseudoInto?.('/x', buf), 3, 'a fixture root stands in for /sys');
});

test('normalPath is path.normalize for any path (property)', () => {
  const seg = fc.constantFrom('a', 'b', '.', '..', '', 'cgroup.procs', '.x');
  fc.assert(fc.property(fc.boolean(), fc.array(seg, { maxLength: 8 }), (abs, parts) => {
    const p = `${abs ? '/' : ''}${parts.join('/')}`;
    return normalPath(p) === normalize(p);
  }), { numRuns: 2000 });
});
