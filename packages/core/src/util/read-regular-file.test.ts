import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRegularFile } from './read-regular-file.ts';

const pendingFsRequests = () => process.getActiveResourcesInfo().filter((r) => r.startsWith('FSReq') || r.startsWith('FileHandle'));

test('a small file (a manifest, resolv.conf) is read without thread-pool round trips; a large file whole, a FIFO refused without blocking', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-read-regular-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const small = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"é"}}\n';
  writeFileSync(join(dir, 'pod.json'), small);
  assert.deepEqual(pendingFsRequests(), []);
  const read = readRegularFile(join(dir, 'pod.json'));
  assert.deepEqual(pendingFsRequests(), [], 'no open/fstat/read/close waiting on the thread pool');
  assert.equal(await read, small);
  const large = 'x'.repeat(600 * 1024);
  writeFileSync(join(dir, 'large.yaml'), large);
  assert.equal(await readRegularFile(join(dir, 'large.yaml')), large);
  execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
  await assert.rejects(readRegularFile(join(dir, 'pipe.yaml')), { code: 'EINVAL' });
  await assert.rejects(readRegularFile(join(dir, 'gone.yaml')), { code: 'ENOENT' });
});
