import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeManifestFs } from './manifest-fs.ts';

const pendingFsRequests = () => process.getActiveResourcesInfo().filter((r) => r.startsWith('FSReq') || r.startsWith('FileHandle'));

test('a manifest is read without thread-pool round trips; a large file whole, a FIFO refused without blocking', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-manifest-fs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const small = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"é"}}\n';
  writeFileSync(join(dir, 'pod.json'), small);
  assert.deepEqual(pendingFsRequests(), []);
  const read = nodeManifestFs.readFile(join(dir, 'pod.json'));
  assert.deepEqual(pendingFsRequests(), [], 'no open/fstat/read/close waiting on the thread pool');
  assert.equal(await read, small);
  const large = 'x'.repeat(600 * 1024);
  writeFileSync(join(dir, 'large.yaml'), large);
  assert.equal(await nodeManifestFs.readFile(join(dir, 'large.yaml')), large);
  execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
  await assert.rejects(nodeManifestFs.readFile(join(dir, 'pipe.yaml')), { code: 'EINVAL' });
  await assert.rejects(nodeManifestFs.readFile(join(dir, 'gone.yaml')), { code: 'ENOENT' });
});
