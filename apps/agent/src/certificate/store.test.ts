/**
 * The certificate store against client-go's certificate_store.go behaviour: `<prefix>-<2006-01-02-15-04-05>.pem`
 * (certificate then key, 0600), the `<prefix>-current.pem` symlink moved on each update, the fallbacks of Current(),
 * and unreadable pairs named in the error.
 */
process.env.TZ = 'UTC';
import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CertificateStore, loadPair, NoCertKeyError } from './store.ts';
import { rsaKeyPem, testCa, testLeaf } from './testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'nodelet-certstore-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const ca = testCa(T0);
const key = rsaKeyPem();
const otherKey = rsaKeyPem();
const cert = testLeaf(ca, key, { commonName: 'system:node:n1', organizations: ['system:nodes'], notBeforeMs: T0, notAfterMs: T0 + 3600_000 });

describe('CertificateStore', () => {
  it('writes <prefix>-<timestamp>.pem (cert, then key; 0600) and points <prefix>-current.pem at it', () => {
    const d = join(dir, 'a');
    let now = T0;
    const store = new CertificateStore({ pairNamePrefix: 'kubelet-client', certDirectory: d, now: () => now });
    const pair = store.update(cert, key);
    const file = join(d, 'kubelet-client-2026-01-02-03-04-05.pem');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.indexOf('BEGIN CERTIFICATE') < text.indexOf('PRIVATE KEY'), 'certificate block first');
    assert.ok(lstatSync(join(d, 'kubelet-client-current.pem')).isSymbolicLink());
    assert.equal(readlinkSync(join(d, 'kubelet-client-current.pem')), file);
    assert.equal(pair.leaf.subject.includes('CN=system:node:n1'), true);
    assert.equal(store.current().certPem, pair.certPem);

    now = T0 + 61_000;
    const cert2 = testLeaf(ca, otherKey, { commonName: 'system:node:n1', notBeforeMs: T0 + 60_000, notAfterMs: T0 + 7200_000 });
    store.update(cert2, otherKey);
    assert.equal(readlinkSync(join(d, 'kubelet-client-current.pem')), join(d, 'kubelet-client-2026-01-02-03-05-06.pem'));
    assert.equal(Date.parse(store.current().leaf.validTo), T0 + 7200_000);
    assert.ok(statSync(file).isFile(), 'the previous pair stays on disk');
  });

  it('falls back to the configured files, then <prefix>.crt/.key, else NoCertKeyError naming all three', () => {
    const d = join(dir, 'b');
    const certFile = join(dir, 'b-client.crt');
    const keyFile = join(dir, 'b-client.key');
    const store = new CertificateStore({ pairNamePrefix: 'kubelet-client', certDirectory: d, certFile, keyFile });
    assert.throws(() => store.current(), (e: Error) => e instanceof NoCertKeyError && e.message.includes(join(d, 'kubelet-client-current.pem')) && e.message.includes(certFile) && e.message.includes(join(d, 'kubelet-client.key')));
    writeFileSync(certFile, cert);
    writeFileSync(keyFile, key);
    assert.deepEqual(store.current().files, [certFile, keyFile]);
  });

  it('names the files of a corrupt or mismatched pair', () => {
    const bad = join(dir, 'bad.pem');
    writeFileSync(bad, `${cert}${otherKey}`);
    assert.throws(() => loadPair(bad, bad), (e: Error) => !(e instanceof NoCertKeyError) && e.message.includes(bad) && /mismatched/.test(e.message));
    writeFileSync(bad, `-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n${key}`);
    assert.throws(() => loadPair(bad, bad), (e: Error) => e.message.includes(bad) && /corrupt/.test(e.message));
    writeFileSync(bad, cert);
    assert.throws(() => loadPair(bad, bad), (e: Error) => e.message.includes(bad) && /no PRIVATE KEY/.test(e.message));
  });

  it('refuses to replace a <prefix>-current.pem that is a regular file', () => {
    const d = join(dir, 'c');
    const store = new CertificateStore({ pairNamePrefix: 'kubelet-server', certDirectory: d, now: () => T0 });
    store.update(cert, key);
    const current = join(d, 'kubelet-server-current.pem');
    rmSync(current);
    writeFileSync(current, `${cert}${key}`);
    assert.throws(() => store.update(cert, key), new RegExp(`expected "${current}" to be a symlink but it is a file`));
  });
});
