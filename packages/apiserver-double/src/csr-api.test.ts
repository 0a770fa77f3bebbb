// Integration: the CSR API of the double over HTTPS with @kubernetes/client-node 1.4 — bootstrap tokens, who may
// create / approve, the own-node rule, and a watch seeing the signer issue the certificate.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CertificatesV1Api, KubeConfig, type V1CertificateSigningRequest } from '@kubernetes/client-node';
import { bootstrapTokenSecret, bootstrapTokenUser } from './auth/bootstrap-tokens.ts';
import { startApiServerDouble } from './server.ts';
import { CLIENT_CSR, OTHER_CSR } from './testing/csr-fixtures.ts';
import { rawRequest, statusOf, waitFor } from './testing/wait.ts';

const TOKEN = 'abcdef.0123456789abcdef';
const csr = (name: string, request = CLIENT_CSR): V1CertificateSigningRequest => ({
  metadata: { name },
  spec: { request: Buffer.from(request).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] },
});
const api = (path: string) => {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc.makeApiClient(CertificatesV1Api);
};
const fails = (p: Promise<unknown>) => p.then(() => assert.fail('expected a failure'), statusOf);

test('bootstrapTokenUser: the Secret decides (id, secret, usage, expiration, extra groups)', () => {
  const secret = bootstrapTokenSecret(TOKEN, ['system:bootstrappers:kubeadm:default-node-token']);
  const lookup = (over: (s: typeof secret) => void = () => {}) => (name: string) => {
    if (name !== 'bootstrap-token-abcdef') return undefined;
    const s = structuredClone(secret);
    over(s);
    return s;
  };
  assert.deepEqual(bootstrapTokenUser(TOKEN, lookup(), 0), { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token'] });
  assert.equal(bootstrapTokenUser('abcdef.0123456789abcdeX', lookup(), 0), undefined, 'not the token form');
  assert.equal(bootstrapTokenUser('abcdef.0123456789abcdee', lookup(), 0), undefined, 'wrong secret');
  assert.equal(bootstrapTokenUser(TOKEN, lookup((s) => (s.type = 'Opaque')), 0), undefined, 'wrong type');
  assert.equal(bootstrapTokenUser(TOKEN, lookup((s) => delete s.data['usage-bootstrap-authentication']), 0), undefined, 'not for authentication');
  const expiring = lookup((s) => (s.data.expiration = Buffer.from('2026-01-01T00:00:00Z').toString('base64')));
  assert.ok(bootstrapTokenUser(TOKEN, expiring, Date.UTC(2025, 11, 31)));
  assert.equal(bootstrapTokenUser(TOKEN, expiring, Date.UTC(2026, 0, 1, 0, 0, 1)), undefined, 'expired');
});

test('CSR API: a bootstrap token creates and watches CSRs, a wrong one is 401, approval is for admins, nodes ask only for themselves', async (t) => {
  const d = await startApiServerDouble({ bootstrapTokens: [TOKEN], clusterSigningDurationMs: 120_000 });
  t.after(() => d.stop());
  const boot = api(d.bootstrapKubeconfig(TOKEN));
  const created = await boot.createCertificateSigningRequest({ body: csr('node-csr-Ab_1') });
  assert.equal(created.spec.username, 'system:bootstrap:abcdef');
  assert.deepEqual(created.spec.groups, ['system:bootstrappers', 'system:authenticated']);
  assert.equal((await fails(api(d.bootstrapKubeconfig('abcdef.ffffffffffffffff')).createCertificateSigningRequest({ body: csr('x') }))).code, 401);
  const denied = await fails(boot.replaceCertificateSigningRequestApproval({ name: 'node-csr-Ab_1', body: created }));
  assert.equal(denied.code, 403);
  assert.match(denied.message, /certificatesigningrequests.certificates.k8s.io "node-csr-Ab_1" is forbidden: User "system:bootstrap:abcdef" cannot update resource "certificatesigningrequests\/approval" in API group "certificates.k8s.io" at the cluster scope/);
  assert.equal((await fails(boot.deleteCertificateSigningRequest({ name: 'node-csr-Ab_1' }))).code, 403);
  const node = api(d.kubeconfigFor('n1'));
  const mine = await node.createCertificateSigningRequest({ body: csr('mine') });
  assert.equal(mine.spec.username, 'system:node:n1');
  const theirs = await fails(node.createCertificateSigningRequest({ body: csr('theirs', OTHER_CSR) }));
  assert.equal(theirs.code, 403);
  assert.match(theirs.message, /node "n1" may only request certificates for itself/);
  // kubectl certificate approve's PUT of /approval, as the admin; the signer issues; the list shows it.
  const approval = { ...created, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' }] } };
  const put = await rawRequest(d, 'PUT', '/apis/certificates.k8s.io/v1/certificatesigningrequests/node-csr-Ab_1/approval', approval);
  assert.equal(put.status, 200);
  const issued = await waitFor(() => d.store.get('certificatesigningrequests', undefined, 'node-csr-Ab_1', 'certificates.k8s.io')?.status?.certificate, 'the certificate');
  assert.match(Buffer.from(issued, 'base64').toString(), /^-----BEGIN CERTIFICATE-----\n/);
  const listed = await boot.listCertificateSigningRequest({ fieldSelector: 'spec.signerName=kubernetes.io/kube-apiserver-client-kubelet' });
  assert.deepEqual(listed.items.map((i) => i.metadata?.name).sort(), ['mine', 'node-csr-Ab_1']);
  const disc = await rawRequest(d, 'GET', '/apis/certificates.k8s.io/v1');
  assert.deepEqual(disc.json.resources.map((r: { name: string; verbs: string[] }) => `${r.name}:${r.verbs.join(',')}`), [
    'certificatesigningrequests:create,delete,deletecollection,get,list,patch,update,watch',
    'certificatesigningrequests/approval:get,patch,update',
    'certificatesigningrequests/status:get,patch,update',
  ]);
});
