// pod-models.ts (the schema type-check.ts checks manifests against) holds every @kubernetes/client-node model
// reachable from V1Pod: after an upgrade of client-node adds a type, this fails until the file is regenerated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('pod-models.ts is what scripts/gen-pod-models.mjs generates from the installed client-node', () => {
  const script = fileURLToPath(new URL('../../../../scripts/gen-pod-models.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
