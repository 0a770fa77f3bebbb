/**
 * requestCertificate against a recording fake API client, with client-go's csr.RequestCertificate /
 * WaitForCertificate behaviour: the POSTed object, the watch on metadata.name from the GET's resourceVersion,
 * issued / denied / failed / deleted outcomes with client-go's messages, a digest-named CSR reused only when it
 * carries our key, API failures with their status, and the wait's timeout on an injected clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeApiClient, FakeClock, fail, ok } from '@nodelet/core/testing';
import type { ApiRequest } from '@nodelet/core/apiclient';
import { CsrError, requestCertificate, type CertificateRequest } from './csr-client.ts';
import { makeCsrPem, newPrivateKeyPem } from './csr-pem.ts';

const KEY = newPrivateKeyPem();
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const req = (o: Partial<CertificateRequest> = {}): CertificateRequest => ({
  signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
  usages: ['digital signature', 'client auth'],
  subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] },
  keyPem: KEY,
  ...o,
});
const csr = (name: string, status: Record<string, unknown> = {}, request = '') => ({
  metadata: { name, uid: 'uid-1', resourceVersion: '5' },
  spec: { request, signerName: 'kubernetes.io/kube-apiserver-client-kubelet' },
  status,
});
const approved = { type: 'Approved', status: 'True', reason: 'KubectlApprove' };
const issued = (name: string) => csr(name, { conditions: [approved], certificate: Buffer.from(CERT).toString('base64') });

function fake(created: ReturnType<typeof csr>, onGet = created) {
  return new FakeApiClient((r: ApiRequest) => (r.method === 'POST' ? ok(created, 201) : ok(onGet)));
}
async function rejection(p: Promise<unknown>): Promise<CsrError> {
  const e = await p.then(() => assert.fail('expected a CsrError'), (err: unknown) => err);
  assert.ok(e instanceof CsrError, String(e));
  return e;
}

test('issued: POST with generateName csr-, GET, watch from its resourceVersion until Approved + certificate', async () => {
  const client = fake(csr('csr-abcde'));
  client.watchScript = [{ events: [{ type: 'MODIFIED', object: csr('csr-abcde', { conditions: [approved] }) }, { type: 'MODIFIED', object: issued('csr-abcde') }], end: { ok: true, reason: 'Closed' } }];
  const names: string[] = [];
  assert.equal(await requestCertificate(client, req({ expirationSeconds: 3600 }), { onCreated: (n) => names.push(n) }), CERT);
  assert.deepEqual(names, ['csr-abcde']);
  assert.deepEqual(client.summary().slice(0, 2), ['POST /apis/certificates.k8s.io/v1/certificatesigningrequests', 'GET /apis/certificates.k8s.io/v1/certificatesigningrequests/csr-abcde']);
  const body = client.calls[0]!.body as { metadata: unknown; spec: Record<string, unknown> };
  assert.deepEqual(body.metadata, { generateName: 'csr-' });
  assert.deepEqual([body.spec.signerName, body.spec.usages, body.spec.expirationSeconds], ['kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth'], 3600]);
  assert.match(Buffer.from(String(body.spec.request), 'base64').toString(), /^-----BEGIN CERTIFICATE REQUEST-----\n/);
  assert.deepEqual(client.watches[0], { path: '/apis/certificates.k8s.io/v1/certificatesigningrequests', query: { fieldSelector: 'metadata.name=csr-abcde', resourceVersion: '5', allowWatchBookmarks: true } });
});

test('denied / failed / deleted end the wait with client-go messages; the stream closing re-GETs and re-watches', async () => {
  const denied = fake(csr('n'));
  denied.watchScript = [
    { events: [], end: { ok: true, reason: 'Closed' } },
    { events: [{ type: 'MODIFIED', object: csr('n', { conditions: [{ type: 'Denied', status: 'True', reason: 'KubectlDeny', message: 'This CSR was denied by kubectl certificate deny.' }] }) }], end: { ok: true, reason: 'Closed' } },
  ];
  const d = await rejection(requestCertificate(denied, req({ name: 'n' })));
  assert.deepEqual([d.kind, d.csrName, d.message], ['Denied', 'n', 'certificate signing request is denied, reason: KubectlDeny, message: This CSR was denied by kubectl certificate deny.']);
  assert.equal(denied.watches.length, 2);
  const failed = fake(csr('n'), csr('n', { conditions: [approved, { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'DNS subjectAltNames are not allowed' }] }));
  assert.equal((await rejection(requestCertificate(failed, req({ name: 'n' })))).message, 'certificate signing request failed, reason: SignerValidationFailure, message: DNS subjectAltNames are not allowed');
  const deleted = fake(csr('n'));
  deleted.watchScript = [{ events: [{ type: 'DELETED', object: csr('n') }], end: { ok: true, reason: 'Closed' } }];
  assert.equal((await rejection(requestCertificate(deleted, req({ name: 'n' })))).message, 'csr "n" was deleted');
  const replaced = fake(csr('n'), { ...csr('n'), metadata: { ...csr('n').metadata, uid: 'uid-2' } });
  assert.equal((await rejection(requestCertificate(replaced, req({ name: 'n' })))).message, 'csr "n" changed UIDs');
});

test('AlreadyExists: the named CSR is reused when its request carries our key, refused otherwise', async () => {
  const mine = csr('node-csr-x', {}, Buffer.from(makeCsrPem(KEY, req().subject)).toString('base64'));
  const reuse = new FakeApiClient((r) => (r.method === 'POST' ? fail(409, 'AlreadyExists') : ok({ ...mine, status: issued('node-csr-x').status })));
  assert.equal(await requestCertificate(reuse, req({ name: 'node-csr-x' })), CERT);
  const theirs = csr('node-csr-x', {}, Buffer.from(makeCsrPem(newPrivateKeyPem(), req().subject)).toString('base64'));
  const refuse = new FakeApiClient((r) => (r.method === 'POST' ? fail(409, 'AlreadyExists') : ok(theirs)));
  const e = await rejection(requestCertificate(refuse, req({ name: 'node-csr-x' })));
  assert.deepEqual([e.kind, e.message], ['Incompatible', 'retrieved csr is not compatible: the request was signed by a different key']);
});

test('API failures carry their status: 401 for a refused token, 0 when unreachable', async () => {
  const unauthorized = new FakeApiClient(() => fail(401, 'Unauthorized', 'Unauthorized'));
  const e = await rejection(requestCertificate(unauthorized, req()));
  assert.deepEqual([e.kind, e.status, e.message], ['Api', 401, 'cannot create certificate signing request: 401 Unauthorized: Unauthorized']);
  const down = new FakeApiClient(() => ({ ok: false, status: 0, reason: 'ConnectionError', message: 'connect ECONNREFUSED 127.0.0.1:6443' }));
  assert.equal((await rejection(requestCertificate(down, req()))).message, 'cannot create certificate signing request: connect ECONNREFUSED 127.0.0.1:6443');
});

test('the wait ends with Timeout after timeoutMs on the injected clock, and with Aborted on the signal', async () => {
  const clock = new FakeClock();
  const pending = fake(csr('n'));
  const waiting = rejection(requestCertificate(pending, req({ name: 'n' }), { clock, timeoutMs: 60_000 }));
  await clock.step(0); // the POST and GET answered: the wait (and its timer) started
  await clock.step(59_999);
  assert.equal(pending.watches.length, 1);
  await clock.step(1);
  const t = await waiting;
  assert.deepEqual([t.kind, t.message], ['Timeout', 'timed out waiting for certificate signing request "n" to be issued']);
  const stop = new AbortController();
  const aborted = rejection(requestCertificate(fake(csr('n')), req({ name: 'n' }), { clock, signal: stop.signal }));
  await clock.step(0);
  stop.abort();
  assert.equal((await aborted).kind, 'Aborted');
});
