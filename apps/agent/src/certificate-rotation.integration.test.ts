/**
 * #18 items 2–3 against the API server TEST DOUBLE (its CSR API and kube-controller-manager's signer, 15 s
 * certificates backdated 25 s: a rotation 3–11 s after each issue, with at least 4 s left before expiry, so the
 * retry 2 s after a failed attempt still has a valid certificate): an agent with rotateCertificates +
 * serverTLSBootstrap, joined with a node kubeconfig,
 * - refuses handshakes on 10250 until the first serving CSR is approved (the kubelet's GetCertificate);
 * - rotates both certificates at once (no pair in its cert dir), then at 70–90 % of each lifetime: client CSRs
 *   auto-approved by the double's csrapproving, serving CSRs approved by this test (as an admin would);
 * - keeps a `containerLogs?follow=true` stream on 10250 open and flowing across the rotations (the stream's TLS
 *   session keeps the serving certificate it started with; a new connection gets the newest);
 * - rotates through an API server outage: the double is paused just before a client rotation deadline, the attempt
 *   fails (renew error counted, lastError shown), the double comes back and the retry 2 s later succeeds;
 * - keeps talking to the API server as system:node:<name> (lease updates) with the rotated pairs, and /metrics
 *   carries the kubelet's certificate manager series. (That the API client presents each rotated pair is shown by
 *   certificate/managers-agent.test.ts; a kubeconfig certificate expiring mid-test made this one depend on how
 *   fast the agent starts.)
 */
import assert from 'node:assert/strict';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { connect, type PeerCertificate } from 'node:tls';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApiServerDouble, type ApiServerDouble } from '@nodelet/apiserver-double';
import type { CertificatesStatus } from './certificate/managers.ts';
import { call, nodeAgent, type NodeAgent } from './testing/cluster-node.ts';
import { openStream } from './testing/https-client.ts';
import { eventually } from './testing/processes.ts';

const NODE = 'rot-node';
let api: ApiServerDouble;
let agent: NodeAgent;
let approver: NodeJS.Timeout | undefined;

const creds = () => {
  const pki = join(agent.root, 'pki');
  return { ca: api.ca, cert: readFileSync(join(pki, 'console.crt'), 'utf8'), key: readFileSync(join(pki, 'console.key'), 'utf8') };
};

async function status(): Promise<CertificatesStatus> {
  const r = await call(`https://127.0.0.1:${agent.port}/trpc/certificates.status`, creds());
  assert.equal(r.status, 200, r.body);
  return (JSON.parse(r.body) as { result: { data: CertificatesStatus } }).result.data;
}

/** The serving certificate a new TLS connection to 10250 gets. */
function servingSerial(): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port: agent.port, ca: api.ca, cert: creds().cert, key: creds().key }, () => {
      resolve(s.getPeerCertificate().serialNumber);
      s.end();
    });
    s.on('error', reject);
  });
}

/** Serving CSRs are never auto-approved (as upstream): approve them as an admin would. */
function startApprover(): void {
  approver = setInterval(() => {
    for (const csr of api.store.list('certificatesigningrequests', {}, 'certificates.k8s.io')) {
      if (csr.spec?.signerName === 'kubernetes.io/kubelet-serving' && !(csr.status?.conditions ?? []).length) api.approveCsr(String(csr.metadata?.name));
    }
  }, 200);
}

before(async () => {
  api = await startApiServerDouble({ clusterSigningDurationMs: 15_000, signingBackdateMs: 25_000, csrAutoApprove: true });
  agent = await nodeAgent(NODE, (root) => {
    const file = api.kubeconfigFor(NODE, { path: join(root, 'kubeconfig') });
    const cfg = join(root, 'kubelet-config.yaml');
    writeFileSync(cfg, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nrotateCertificates: true\nserverTLSBootstrap: true\nnodeLeaseDurationSeconds: 4\n');
    return ['--config', cfg, '--kubeconfig', file, '--node-ip', '127.0.0.1', '--authorization-mode', 'AlwaysAllow', '--cgroups-per-qos=false'];
  });
  await agent.start();
});

after(async () => {
  if (approver) clearInterval(approver);
  await agent?.cleanup();
  await api?.stop();
});

describe('certificate rotation', { timeout: 90_000 }, () => {
  it('rotates client and serving certificates, streams survive, an outage is ridden out', async (t) => {
    // No serving CSR approved yet: 10250 refuses handshakes ("no serving certificate available for the kubelet").
    const early = await new Promise<string | undefined>((resolve) => {
      const s = connect({ host: '127.0.0.1', port: agent.port, rejectUnauthorized: false }, () => {
        resolve(undefined);
        s.end();
      });
      s.on('error', (e) => resolve(e.message));
    });
    assert.ok(early, 'a handshake before the first serving certificate is refused, whatever the client trusts');
    startApprover();
    let seen: unknown;
    const first = await eventually(async () => {
      const s = await status().catch((e: Error) => ({ error: e.message }) as const);
      seen = s;
      return 'serving' in s && s.client?.rotations && s.serving.rotations ? s : undefined;
    }, 20_000, 'both certificates issued at start').catch((e: Error) => {
      throw new Error(`${e.message}; status: ${JSON.stringify(seen)}; log:\n${agent.lines.filter((l) => /certif|csr|CSR/i.test(l)).slice(-12).join('\n')}`);
    });
    assert.equal(first.client?.source, 'rotating');
    assert.match(first.client?.subject ?? '', /CN=system:node:rot-node/);
    assert.match(first.serving.subject ?? '', /CN=system:node:rot-node/);
    const certDir = join(agent.root, 'pki');
    assert.match(readlinkSync(join(certDir, 'kubelet-client-current.pem')), /kubelet-client-\d{4}(-\d\d){5}\.pem$/);
    assert.match(readlinkSync(join(certDir, 'kubelet-server-current.pem')), /kubelet-server-\d{4}(-\d\d){5}\.pem$/);

    api.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'ticker', namespace: 'default' },
      spec: { nodeName: NODE, containers: [{ name: 'c', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never', command: ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.3; done'] }] },
    });
    await eventually(async () => (api.store.get('pods', 'default', 'ticker')?.status?.containerStatuses?.[0]?.state?.running ? true : undefined), 30_000, 'the pod running');
    const stream = await eventually(async () => {
      const s = await openStream(`https://127.0.0.1:${agent.port}/containerLogs/default/ticker/c?follow=true`, creds()).catch(() => undefined);
      if (s && s.res.statusCode !== 200) s.destroy();
      return s?.res.statusCode === 200 ? s : undefined;
    }, 20_000, 'logs follow stream open');
    let text = '';
    let ended = '';
    stream.res.setEncoding('utf8');
    stream.res.on('data', (c: string) => (text += c));
    stream.res.on('close', () => (ended ||= `closed at ${new Date().toISOString()}`));
    await eventually(async () => (text.includes('tick') ? true : undefined), 10_000, 'the first log lines');
    const streamCert = (stream.res.socket as unknown as { getPeerCertificate(): PeerCertificate }).getPeerCertificate().serialNumber;
    const opened = await status();

    // One rotation of each with the stream open.
    await eventually(async () => {
      const s = await status();
      return (s.client?.rotations ?? 0) > (opened.client?.rotations ?? 0) && s.serving.rotations! > opened.serving.rotations! ? s : undefined;
    }, 20_000, 'a client and a serving rotation with the stream open');

    // The API server goes away just before the next client deadline, and comes back after the failed attempt.
    const next = await eventually(async () => {
      const s = await status();
      return Date.parse(s.client?.nextRotation ?? '') > Date.now() + 400 ? s : undefined;
    }, 15_000, 'the next client rotation deadline shown');
    await new Promise((r) => setTimeout(r, Date.parse(next.client?.nextRotation ?? '') - Date.now() - 300));
    await api.pause();
    const failed = await eventually(async () => {
      const s = await status();
      return (s.client?.renewErrors ?? 0) > (next.client?.renewErrors ?? 0) ? s : undefined;
    }, 5_000, 'a failed rotation attempt while the API server is down');
    assert.ok(failed.client?.lastError, 'lastError shown');
    await api.resume();
    const recovered = await eventually(async () => {
      const s = await status();
      return (s.client?.rotations ?? 0) > (next.client?.rotations ?? 0) && !s.client?.lastError ? s : undefined;
    }, 10_000, 'the retry after the outage succeeded');
    assert.ok(Date.parse(recovered.client?.notAfter ?? '') > Date.now(), 'a valid client certificate');

    // The stream is still the same connection, still flowing, still on the serving certificate it started with.
    const lines = text.length;
    await eventually(async () => (text.length > lines ? true : undefined), 5_000, 'new log lines after the rotations').catch((e: Error) => {
      throw new Error(`${e.message}; stream ${ended || 'open'}; last lines: ${text.slice(-80)}; pods: ${JSON.stringify(api.store.list('pods', {}).map((p) => p.status?.containerStatuses))}`);
    });
    assert.equal((stream.res.socket as unknown as { getPeerCertificate(): PeerCertificate }).getPeerCertificate().serialNumber, streamCert);
    assert.ok((recovered.serving.rotations ?? 0) >= (opened.serving.rotations ?? 0) + 1);
    assert.notEqual(await servingSerial(), streamCert, 'a new connection gets the rotated serving certificate');
    stream.destroy();

    // With the rotated pairs the agent still speaks as the node (lease updates).
    const mark = api.requests.length;
    const leases = await eventually(async () => {
      const l = api.requests.slice(mark).filter((r) => r.resource === 'leases');
      return l.some((r) => r.verb === 'update') ? l : undefined;
    }, 10_000, 'lease updates after the rotations');
    assert.deepEqual([...new Set(leases.map((r) => r.user))], [`system:node:${NODE}`]);

    const metrics = await call(`https://127.0.0.1:${agent.port}/metrics`, creds());
    for (const name of ['kubelet_certificate_manager_client_ttl_seconds', 'kubelet_certificate_manager_client_expiration_renew_errors', 'kubelet_certificate_manager_server_ttl_seconds', 'kubelet_server_expiration_renew_errors']) {
      assert.match(metrics.body, new RegExp(`^${name} `, 'm'), name);
    }
    assert.match(metrics.body, /^kubelet_certificate_manager_client_expiration_renew_errors [1-9]/m);
    t.diagnostic(agent.lines.filter((l) => l.includes('"component":"certificate-manager"')).join('\n'));
  });
});
