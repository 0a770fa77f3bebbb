/**
 * The kubelet's keys and requests checked with OpenSSL (the reference parser): the key is a SEC1 P-256 key, the
 * request verifies and carries the subject and SANs certutil.MakeCSR writes; the bootstrap CSR name is
 * node-csr-<base64url(SHA-512/256(...))> over the fields digestedName hashes, recomputed here with `openssl dgst`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { digestedCsrName, makeCsrPem, newPrivateKeyPem, publicKeyDer, usagesForKey } from './csr-pem.ts';

const skip = !existsSync('/usr/bin/openssl') && process.env.CI !== 'true' && 'openssl is not installed';
const openssl = (args: string[], input: string) => execFileSync('/usr/bin/openssl', args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });

test('newPrivateKeyPem: ECDSA P-256 in a SEC1 "EC PRIVATE KEY" block', () => {
  const pem = newPrivateKeyPem();
  assert.match(pem, /^-----BEGIN EC PRIVATE KEY-----\n/);
  const k = createPrivateKey(pem);
  assert.deepEqual([k.asymmetricKeyType, k.asymmetricKeyDetails?.namedCurve], ['ec', 'prime256v1']);
});

test('makeCsrPem: OpenSSL verifies the request and reads subject O then CN and the SANs', { skip }, () => {
  const ec = makeCsrPem(newPrivateKeyPem(), { commonName: 'system:node:n1', organizations: ['system:nodes'] }, ['n1', 'n1.example'], ['10.0.0.1', 'fd00::1']);
  const text = openssl(['req', '-noout', '-verify', '-text'], ec);
  assert.match(text, /Subject: O = system:nodes, CN = system:node:n1/);
  assert.match(text, /Signature Algorithm: ecdsa-with-SHA256/);
  assert.match(text, /DNS:n1, DNS:n1.example, IP Address:10.0.0.1, IP Address:FD00:0:0:0:0:0:0:1/);
  const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const rsa = openssl(['req', '-noout', '-verify', '-text'], makeCsrPem(rsaKey, { commonName: 'system:node:n1', organizations: ['system:nodes'] }));
  assert.match(rsa, /Signature Algorithm: sha256WithRSAEncryption/);
  assert.doesNotMatch(rsa, /Subject Alternative Name/);
});

test('usagesForKey drops key encipherment for ECDSA keys only', () => {
  const usages = ['digital signature', 'key encipherment', 'client auth'];
  assert.deepEqual(usagesForKey(newPrivateKeyPem(), usages), ['digital signature', 'client auth']);
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  assert.deepEqual(usagesForKey(rsa, usages), usages);
});

test('digestedCsrName: node-csr- + base64url SHA-512/256 of the base64url fields, each followed by "|"', { skip }, () => {
  const key = newPrivateKeyPem();
  const subject = { commonName: 'system:node:n1', organizations: ['system:nodes'] };
  const usages = ['digital signature', 'client auth'];
  const fields = [publicKeyDer(createPrivateKey(key)), ...[subject.commonName, ...subject.organizations, ...usages].map((s) => Buffer.from(s))];
  const stream = fields.map((f) => `${f.toString('base64url')}|`).join('');
  const digest = execFileSync('/usr/bin/openssl', ['dgst', '-sha512-256', '-binary'], { input: stream });
  const name = digestedCsrName(key, subject, usages);
  assert.equal(name, `node-csr-${digest.toString('base64url')}`);
  assert.match(name, /^node-csr-[A-Za-z0-9_-]{43}$/);
  assert.notEqual(digestedCsrName(key, subject, [...usages, 'key encipherment']), name);
});
