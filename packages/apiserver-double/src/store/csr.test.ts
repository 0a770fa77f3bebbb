/**
 * CertificateSigningRequests through the registry and the double's csrsigning / csrapproving controllers, with the
 * v1.28 answers (pkg/apis/certificates/validation, pkg/registry/certificates strategies, pkg/controller/certificates
 * signer + approver, pkg/apis/certificates/v1 helpers). Requests are OpenSSL-made fixtures.
 */
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { test } from 'node:test';
import { FakeClock } from '@nodelet/core/testing';
import { createCertAuthority } from '../auth/pki.ts';
import { CLIENT_CSR, EC_KEY, OTHER_CSR, RSA_CSR, SERVING_CSR } from '../testing/csr-fixtures.ts';
import { thrownStatus } from '../testing/thrown-status.ts';
import { parseCsr } from './csr-parse.ts';
import { startCsrControllers } from './csr-signer.ts';
import { Registry } from './registry.ts';
import { RawStore } from './store.ts';

const NOW = Date.UTC(2026, 0, 1);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const bootstrapper = { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:authenticated'] };
const node1 = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

function setup() {
  const clock = new FakeClock(NOW);
  const reg = new Registry(clock, new RawStore({}));
  return { reg, clock, r: reg.resource('certificates.k8s.io', 'certificatesigningrequests') };
}
const csr = (name: string, request = CLIENT_CSR, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { request: b64(request), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'], ...extra },
});
const tick = () => new Promise((r) => setImmediate(r));

test('parseCsr reads OpenSSL requests: subject, SANs, key; a flipped signature byte fails as Go words it', () => {
  const s = parseCsr(SERVING_CSR);
  assert.ok(s.ok);
  assert.equal(s.csr.commonName, 'system:node:n1');
  assert.deepEqual(s.csr.organizations, ['system:nodes']);
  assert.deepEqual([s.csr.dnsNames, s.csr.ipAddresses], [['n1'], ['10.0.0.1']]);
  assert.ok(createPublicKey(createPrivateKey(EC_KEY)).export({ type: 'spki', format: 'der' }).equals(s.csr.spkiDer));
  assert.ok(parseCsr(RSA_CSR).ok);
  const der = Buffer.from(CLIENT_CSR.split('\n').filter((l) => !l.startsWith('-----')).join(''), 'base64');
  der.writeUInt8(der.readUInt8(der.length - 1) ^ 1, der.length - 1);
  const bad = parseCsr(`-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
  assert.deepEqual(bad, { ok: false, reason: 'x509: ECDSA verification failure' });
  assert.deepEqual(parseCsr(EC_KEY), { ok: false, reason: 'PEM block type must be CERTIFICATE REQUEST' });
});

test('create: the requester goes into the spec (client values dropped), the status starts empty, any name is allowed', () => {
  const { reg, r } = setup();
  const body = csr('node-csr-AbC_-x9');
  (body.spec as Record<string, unknown>).username = 'admin';
  (body as Record<string, unknown>).status = { conditions: [{ type: 'Approved', status: 'True' }] };
  const o = reg.create(r, undefined, body, true, { ...bootstrapper, uid: 'u1', extra: { k: ['v'] } });
  assert.equal(o.metadata.name, 'node-csr-AbC_-x9');
  assert.deepEqual([o.spec.username, o.spec.uid, o.spec.groups, o.spec.extra], ['system:bootstrap:abcdef', 'u1', bootstrapper.groups, { k: ['v'] }]);
  assert.deepEqual(o.status, {});
  assert.equal(o.apiVersion, 'certificates.k8s.io/v1');
});

test('create validation: request, signerName, usages, expirationSeconds — 422 with the API server messages', () => {
  const { reg, r } = setup();
  const causes = (body: Record<string, unknown>) => thrownStatus(() => reg.create(r, undefined, body as never)).details?.causes?.map((c) => `${c.field}: ${c.message}`);
  assert.deepEqual(causes(csr('a', CLIENT_CSR, { signerName: '' })), ['spec.signerName: Required value']);
  assert.deepEqual(causes(csr('a', CLIENT_CSR, { signerName: 'kubernetes.io' })), [
    "spec.signerName: Invalid value: \"kubernetes.io\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
  ]);
  assert.deepEqual(causes(csr('a', CLIENT_CSR, { signerName: 'kubernetes.io/legacy-unknown' })), [
    'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
  ]);
  assert.deepEqual(causes(csr('a', CLIENT_CSR, { usages: [] })), ['spec.usages: Required value']);
  const bad = causes(csr('a', CLIENT_CSR, { usages: ['client auth', 'client auth', 'root'] }))!;
  assert.equal(bad[0], 'spec.usages[2]: Unsupported value: "root": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"');
  assert.equal(bad[1], 'spec.usages[1]: Duplicate value: "client auth"');
  assert.deepEqual(causes(csr('a', CLIENT_CSR, { expirationSeconds: 599 })), ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']);
  const req = causes(csr('a', 'not a csr'))!;
  assert.equal(req[0], 'spec.request: Invalid value: []byte{0x6e, 0x6f, 0x74, 0x20, 0x61, 0x20, 0x63, 0x73, 0x72}: PEM block type must be CERTIFICATE REQUEST');
  assert.equal(thrownStatus(() => reg.create(r, undefined, csr('a', 'x') as never)).message.startsWith('CertificateSigningRequest.certificates.k8s.io "a" is invalid: '), true);
});

test('/approval sets conditions only; /status sets the certificate only; the main resource neither', () => {
  const { reg, r } = setup();
  const o = reg.create(r, undefined, csr('c'), true, node1);
  const approved = { type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' };
  // The main resource keeps spec and status.
  const same = reg.update(r, undefined, 'c', { ...o, metadata: { ...o.metadata, labels: { a: 'b' } }, spec: { ...o.spec, usages: ['any'] }, status: { conditions: [approved] } });
  assert.deepEqual([same.spec.usages, same.status, same.metadata.labels], [['digital signature', 'client auth'], {}, { a: 'b' }]);
  // /status may not add an Approved condition.
  assert.match(thrownStatus(() => reg.update(r, undefined, 'c', { ...same, status: { conditions: [approved] } }, 'status')).message, /status.conditions: Forbidden: updates may not add a condition of type "Approved"/);
  const a = reg.update(r, undefined, 'c', { ...same, status: { conditions: [approved] } }, 'approval');
  assert.deepEqual(a.status.conditions, [{ ...approved, lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }]);
  const denied = { type: 'Denied', status: 'True', reason: 'KubectlDeny' };
  assert.match(thrownStatus(() => reg.update(r, undefined, 'c', { ...a, status: { conditions: [...a.status.conditions, denied] } }, 'approval')).message, /status.conditions\[1\].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive/);
  assert.match(thrownStatus(() => reg.update(r, undefined, 'c', { ...a, status: { conditions: [] } }, 'approval')).message, /status.conditions: Forbidden: updates may not remove a condition of type "Approved"/);
  const ca = createCertAuthority();
  const cert = b64(ca.issue({ commonName: 'system:node:n1', usage: 'client' }).cert);
  assert.equal(reg.update(r, undefined, 'c', { ...a, status: { ...a.status, certificate: cert } }, 'approval').status.certificate, undefined);
  assert.match(thrownStatus(() => reg.update(r, undefined, 'c', { ...a, status: { ...a.status, certificate: b64('junk') } }, 'status')).message, /status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block/);
  const issued = reg.update(r, undefined, 'c', { ...a, status: { ...a.status, certificate: cert } }, 'status');
  assert.equal(issued.status.certificate, cert);
  const other = b64(ca.issue({ commonName: 'system:node:n2', usage: 'client' }).cert);
  assert.match(thrownStatus(() => reg.update(r, undefined, 'c', { ...issued, status: { ...issued.status, certificate: other } }, 'status')).message, /status.certificate: Forbidden: updates may not modify existing certificate content/);
});

test('signer: an approved kubelet client CSR is issued by the CA with the request key, 5-min backdate, the signing duration', async () => {
  const { reg, r, clock } = setup();
  const ca = createCertAuthority();
  const stop = startCsrControllers(reg, ca, clock, { clusterSigningDurationMs: 60_000, autoApprove: true });
  try {
    reg.create(r, undefined, csr('boot'), true, bootstrapper);
    reg.create(r, undefined, csr('self'), true, node1);
    reg.create(r, undefined, csr('for-n2', OTHER_CSR), true, node1);
    await tick();
    const boot = reg.get(r, undefined, 'boot');
    assert.deepEqual(boot.status.conditions.map((c: { type: string; reason: string; message: string }) => [c.type, c.reason, c.message]), [
      ['Approved', 'AutoApproved', 'Auto approving kubelet client certificate after SubjectAccessReview.'],
    ]);
    assert.equal(reg.get(r, undefined, 'self').status.conditions[0].message, 'Auto approving self kubelet client certificate after SubjectAccessReview.');
    assert.deepEqual(reg.get(r, undefined, 'for-n2').status, {}, 'a node asking for another node is not auto-approved');
    const x = new X509Certificate(Buffer.from(boot.status.certificate, 'base64').toString());
    assert.ok(x.verify(new X509Certificate(ca.cert).publicKey), 'signed by the double CA');
    assert.ok(x.checkPrivateKey(createPrivateKey(EC_KEY)), 'the request key');
    assert.equal(x.subject, 'O=system:nodes\nCN=system:node:n1');
    assert.deepEqual([Date.parse(x.validFrom), Date.parse(x.validTo)], [NOW - 300_000, NOW + 60_000]);
    assert.equal(x.keyUsage?.join(','), '1.3.6.1.5.5.7.3.2');
    assert.equal(x.ca, false);
  } finally {
    stop();
  }
});

test('signer: a request breaking its signer rules gets Failed / SignerValidationFailure; unknown signers stay pending', async () => {
  const { reg, r, clock } = setup();
  const stop = startCsrControllers(reg, createCertAuthority(), clock);
  const approve = (name: string) => {
    const o = reg.get(r, undefined, name);
    reg.update(r, undefined, name, { ...o, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'T' }] } }, 'approval');
  };
  try {
    reg.create(r, undefined, csr('serving-no-san', CLIENT_CSR, { signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] }), true, node1);
    reg.create(r, undefined, csr('client-with-san', SERVING_CSR), true, node1);
    reg.create(r, undefined, csr('custom', CLIENT_CSR, { signerName: 'example.com/signer' }), true, node1);
    reg.create(r, undefined, csr('serving', SERVING_CSR, { signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] }), true, node1);
    await tick();
    for (const n of ['serving-no-san', 'client-with-san', 'custom', 'serving']) assert.deepEqual(reg.get(r, undefined, n).status, {}, `${n} not auto-approved`);
    for (const n of ['serving-no-san', 'client-with-san', 'custom', 'serving']) approve(n);
    await tick();
    const failed = (n: string) => reg.get(r, undefined, n).status.conditions.filter((c: { type: string }) => c.type === 'Failed').map((c: { reason: string; message: string }) => `${c.reason}: ${c.message}`);
    assert.deepEqual(failed('serving-no-san'), ['SignerValidationFailure: DNS or IP subjectAltName is required']);
    assert.deepEqual(failed('client-with-san'), ['SignerValidationFailure: DNS subjectAltNames are not allowed']);
    assert.equal(reg.get(r, undefined, 'custom').status.certificate, undefined);
    const served = new X509Certificate(Buffer.from(reg.get(r, undefined, 'serving').status.certificate, 'base64').toString());
    assert.equal(served.subjectAltName, 'DNS:n1, IP Address:10.0.0.1');
    assert.equal(Date.parse(served.validTo) - Date.parse(served.validFrom), 365 * 86_400_000, 'a long TTL: notAfter = notBefore + 1 year');
  } finally {
    stop();
  }
});
