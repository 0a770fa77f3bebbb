// node-forge is loaded for the certificates a first start or a rotation makes, then let go: kept, it held ≈ 1.5 MiB
// of the agent's heap for the process's life.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { forge, releaseForge } from './certs.ts';

const forgeModules = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => /[/\\]node-forge[/\\]/.test(k));

test('forge() loads node-forge once while in use; releaseForge() drops it from the module cache, and the next use loads it again', () => {
  const a = forge();
  assert.equal(forge(), a, 'one instance while it is in use');
  assert.ok(forgeModules().length > 10, 'node-forge is in the CommonJS cache');
  assert.equal(typeof a.pki.createCertificate, 'function');
  releaseForge();
  assert.deepEqual(forgeModules(), [], 'no node-forge module left in the cache');
  const b = forge();
  assert.notEqual(b, a, 'a fresh load after the release');
  assert.equal(typeof b.pki.createCertificate().sign, 'function');
  releaseForge();
});
