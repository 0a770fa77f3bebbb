/**
 * TLS bootstrap end to end: a real agent process with only --bootstrap-kubeconfig (a bootstrap token) and a
 * --kubeconfig path that does not exist yet, against the API server TEST DOUBLE (not kube-apiserver), approved and
 * denied with the real `kubectl certificate approve|deny`. The token's Secret is created only after the first
 * attempt (401 reported, retried), the first CSR is denied (logged with its name and message, retried; the test
 * deletes it), the recreated one is approved: the certificate lands in <cert-dir>/kubelet-client-<stamp>.pem behind
 * the kubelet-client-current.pem symlink, the kubeconfig points at it, and the node registers with it. Then the pair
 * on disk is broken (a foreign key): a restart names the files and bootstraps again.
 * Skipped (with the reason) when /usr/bin/kubectl is absent outside CI.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { bootstrapTokenSecret, startApiServerDouble, type ApiServerDouble } from '@nodelet/apiserver-double';
import { nodeAgent, type NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';
import { newPrivateKeyPem } from './certificate/csr-pem.ts';

const KUBECTL = '/usr/bin/kubectl';
const skip = !existsSync(KUBECTL) && process.env.CI !== 'true' && 'kubectl is not installed';
const TOKEN = 'h1boot.0123456789abcdef';
let api: ApiServerDouble;
let agent: NodeAgent;

const kubectl = (...args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile(KUBECTL, ['--kubeconfig', api.adminKubeconfig(), ...args], { timeout: 30_000 }, (e, out, err) => (e ? reject(new Error(`kubectl ${args.join(' ')}: ${err}`)) : resolve(out))));
const csrs = () => api.store.list('certificatesigningrequests', {}, 'certificates.k8s.io');
const logged = (pred: (l: Record<string, unknown>) => boolean, what: string) =>
  eventually(async () => agent.lines.map((l) => (l.startsWith('{') ? (JSON.parse(l) as Record<string, unknown>) : {})).find(pred), 60_000, what).catch((err: Error) => {
    throw new Error(`${err.message}; the agent's last lines:\n${agent.lines.slice(-15).join('\n')}`);
  });

describe('TLS bootstrap with a bootstrap token', { skip, timeout: 120_000 }, () => {
  before(async () => {
    api = await startApiServerDouble({ kubeletPreferredAddressTypes: ['InternalIP'] });
    agent = await nodeAgent('boot-a', (root) => [
      '--kubeconfig', join(root, 'kubelet.kubeconfig'),
      '--bootstrap-kubeconfig', api.bootstrapKubeconfig(TOKEN, join(root, 'bootstrap.kubeconfig')),
      '--node-ip', '127.0.0.1', '--authorization-mode', 'AlwaysAllow', '--cgroups-per-qos=false',
    ]);
  });
  after(async () => {
    await agent?.cleanup();
    await api?.stop();
  });

  it('401 then a denied CSR are retried; the approved one is stored, written to the kubeconfig, and the node joins', async () => {
    const started = agent.start();
    started.catch(() => undefined);
    await logged((l) => String(l.msg).includes('401 Unauthorized'), 'the 401 log line');
    api.store.create(bootstrapTokenSecret(TOKEN));
    const first = await eventually(async () => csrs()[0], 30_000, 'the first CSR');
    const name = String(first.metadata.name);
    assert.match(name, /^node-csr-[A-Za-z0-9_-]{43}$/);
    assert.deepEqual([first.spec.signerName, first.spec.usages, first.spec.username], ['kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth'], 'system:bootstrap:h1boot']);
    await logged((l) => l.csr === name && String(l.msg).startsWith('waiting for the client certificate'), 'the waiting line naming the CSR');
    assert.match(await kubectl('certificate', 'deny', name), /denied/);
    const denial = await logged((l) => l.csr === name && String(l.msg).startsWith('certificate signing request denied'), 'the denial log line');
    assert.match(String(denial.err), /reason: KubectlDeny, message: This CSR was denied by kubectl certificate deny\./);
    await kubectl('delete', 'csr', name);
    await eventually(async () => csrs().find((c) => c.metadata.name === name && !c.status?.conditions), 30_000, 'the CSR requested again');
    assert.match(await kubectl('certificate', 'approve', name), /approved/);
    await started;
    const root = agent.root;
    const current = join(root, 'pki', 'kubelet-client-current.pem');
    assert.match(readlinkSync(current), new RegExp(`^${join(root, 'pki')}/kubelet-client-\\d{4}-\\d{2}-\\d{2}-\\d{2}-\\d{2}-\\d{2}\\.pem$`));
    const pem = readFileSync(current, 'utf8');
    const cert = new X509Certificate(pem);
    assert.equal(cert.subject, 'O=system:nodes\nCN=system:node:boot-a');
    assert.ok(cert.verify(new X509Certificate(api.ca).publicKey), 'issued by the cluster CA');
    assert.ok(cert.checkPrivateKey(createPrivateKey(pem)), 'key and certificate in one file');
    assert.equal(existsSync(join(root, 'pki', 'kubelet-client.key.tmp')), false);
    const kc = parse(readFileSync(join(root, 'kubelet.kubeconfig'), 'utf8'));
    assert.deepEqual(kc.users[0].user, { 'client-certificate': current, 'client-key': current });
    assert.equal(kc.clusters[0].cluster.server, api.url);
    await eventually(async () => api.store.get('nodes', undefined, 'boot-a'), 30_000, 'the Node registered');
    assert.ok(api.requests.some((r) => r.user === 'system:node:boot-a' && r.resource === 'nodes' && r.verb === 'create'), 'registered with the bootstrapped identity');
  });

  it('a pair broken on disk is named in the log and bootstrapped again', async () => {
    await agent.kill('SIGTERM');
    const current = join(agent.root, 'pki', 'kubelet-client-current.pem');
    const certOnly = readFileSync(current, 'utf8').replace(/-----BEGIN EC PRIVATE KEY-----[\s\S]+$/, '');
    writeFileSync(readlinkSync(current), certOnly + newPrivateKeyPem());
    const known = new Set(csrs().map((c) => c.metadata.name));
    const started = agent.start();
    started.catch(() => undefined);
    const broken = await logged((l) => String(l.msg).includes('mismatched certificate/key pair'), 'the broken-pair error');
    assert.match(String(broken.msg), new RegExp(current.replace(/[.]/g, '\\.')));
    const again = await eventually(async () => csrs().find((c) => !known.has(c.metadata.name)), 30_000, 'a new CSR');
    await kubectl('certificate', 'approve', String(again.metadata.name));
    await started;
    const fresh = readFileSync(current, 'utf8');
    assert.ok(new X509Certificate(fresh).checkPrivateKey(createPrivateKey(fresh)));
  });
});
