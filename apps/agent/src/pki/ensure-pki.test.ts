import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { nullLogger } from '@nodelet/core/util';
import { CONSOLE_CN, ensurePki } from './ensure-pki.ts';

const root = mkdtempSync(join(tmpdir(), 'nodelet-pki-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('ensurePki', () => {
  it('creates CA, serving and console certificates on first start', () => {
    const pki = ensurePki(root, 'node-a', nullLogger);
    assert.equal(pki.created.length, 6);
    for (const f of ['ca.crt', 'ca.key', 'kubelet.crt', 'kubelet.key', 'console.crt', 'console.key']) {
      assert.ok(statSync(join(root, 'pki', f)).isFile(), f);
    }
    for (const f of ['ca.key', 'kubelet.key', 'console.key']) {
      assert.equal(statSync(join(root, 'pki', f)).mode & 0o777, 0o600, `${f} mode`);
    }
    const ca = new X509Certificate(readFileSync(join(root, 'pki', 'ca.crt')));
    assert.equal(ca.ca, true);
    const serving = new X509Certificate(readFileSync(join(root, 'pki', 'kubelet.crt')));
    assert.ok(serving.verify(ca.publicKey));
    assert.ok(serving.checkHost('localhost'));
    assert.ok(serving.checkHost('node-a'));
    assert.ok(serving.checkIP('127.0.0.1'));
    assert.ok(serving.checkIP('::1'));
    const client = new X509Certificate(readFileSync(join(root, 'pki', 'console.crt')));
    assert.ok(client.verify(ca.publicKey));
    assert.match(client.subject, new RegExp(`CN=${CONSOLE_CN}`));
    assert.match(client.subject, /O=system:masters/);
    assert.match(client.keyUsage?.join(',') ?? '', /1\.3\.6\.1\.5\.5\.7\.3\.2/);
  });

  it('reuses them on a later start', () => {
    const before = readFileSync(join(root, 'pki', 'kubelet.crt'), 'utf8');
    const pki = ensurePki(root, 'node-a', nullLogger);
    assert.deepEqual(pki.created, []);
    assert.equal(readFileSync(join(root, 'pki', 'kubelet.crt'), 'utf8'), before);
  });

  it('re-issues the serving cert when the node name changes, keeping the CA and console cert', () => {
    const ca = readFileSync(join(root, 'pki', 'ca.crt'), 'utf8');
    const pki = ensurePki(root, 'node-b', nullLogger);
    assert.deepEqual(pki.created.map((p) => p.split('/').pop()), ['kubelet.crt', 'kubelet.key']);
    assert.equal(readFileSync(join(root, 'pki', 'ca.crt'), 'utf8'), ca);
    assert.ok(new X509Certificate(pki.serving.certPem).checkHost('node-b'));
  });

  it('re-issues a leaf that the CA did not sign', () => {
    const other = mkdtempSync(join(tmpdir(), 'nodelet-pki2-'));
    try {
      ensurePki(other, 'node-b', nullLogger);
      writeFileSync(join(root, 'pki', 'console.crt'), readFileSync(join(other, 'pki', 'console.crt')));
      writeFileSync(join(root, 'pki', 'console.key'), readFileSync(join(other, 'pki', 'console.key')));
      const pki = ensurePki(root, 'node-b', nullLogger);
      assert.deepEqual(pki.created.map((p) => p.split('/').pop()), ['console.crt', 'console.key']);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
