/**
 * The listeners' side of the certificate managers:
 * - 10250 with serverTLSBootstrap and no serving certificate yet refuses TLS handshakes, as the kubelet's
 *   GetCertificate ("no serving certificate available for the kubelet", pkg/kubelet/kubelet.go), with or without
 *   a server name, until the first certificate is set; then it serves that one; and refuses again once the serving
 *   manager's pair expires with no successor (Current() is nil for an expired pair);
 * - the read-only port's /metrics carries the certificate managers' series as 10250's does (the kubelet serves one
 *   legacy registry on both ports).
 * (agent.ts wires both: certificate-rotation.integration.test.ts runs them in a real agent.)
 */
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { nullLogger } from '@nodelet/core/util';
import { createKubeletServer, NO_SERVING_CERTIFICATE, type KubeletServer } from '../servers/kubelet-server.ts';
import { createReadOnlyServer, type PlainServer } from '../servers/readonly-server.ts';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { FakeStats } from '../testing/fake-stats.ts';
import { doRequest } from '../testing/https-client.ts';
import type { CertificateManager } from './manager.ts';
import { createCertificateMetrics } from './manager-metrics.ts';
import { createCertificateManagers } from './managers.ts';
import { certTestBed, testLeaf } from './testing.ts';

const NOW = Math.floor(Date.now() / 1000) * 1000;
const bed = certTestBed('nodelet-certlisten-', NOW);
const { ca, key } = bed;
const rec = new RecordingLogger();
const kubelet = Object.assign(new FakeKubelet(), { stats: new FakeStats() });
let secure: KubeletServer;
let ro: PlainServer;
let securePort = 0;
let roPort = 0;

before(async () => {
  secure = createKubeletServer({ kubelet, logger: rec.logger, authorizer: { authorize: () => ({ allowed: true }) }, nodeName: 'n1', anonymousAuth: false, tls: { clientCAs: [ca.certPem] } });
  securePort = await secure.listen(0, '127.0.0.1');
  const metrics = createCertificateMetrics();
  metrics.track('client', { ttlSeconds: () => 3000 } as CertificateManager);
  metrics.track('server', { ttlSeconds: () => Number.POSITIVE_INFINITY } as CertificateManager);
  ro = createReadOnlyServer(kubelet, nullLogger, undefined, undefined, () => metrics.registry.metrics());
  roPort = await ro.listen(0, '127.0.0.1');
});
after(async () => {
  await secure?.close(10);
  await ro?.close(10);
});

/** A TLS handshake with 10250 (with or without a server name): the serving certificate's CN, or the error. */
function handshake(servername?: string): Promise<{ cn?: string; error?: string }> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port: securePort, rejectUnauthorized: false, ...(servername ? { servername } : {}) }, () => {
      resolve({ cn: String(s.getPeerCertificate().subject?.CN) });
      s.end();
    });
    s.on('error', (e) => resolve({ error: e.message }));
  });
}

describe('10250 before the first serving certificate (serverTLSBootstrap)', () => {
  it('refuses handshakes, logging the kubelet’s reason; serves the certificate once it is set', async () => {
    assert.ok((await handshake()).error, 'a client without a server name (an IP address) is refused');
    assert.ok((await handshake('n1')).error, 'a client with a server name is refused');
    assert.ok(rec.records.some((r) => r.msg === 'http: TLS handshake error' && r.err === NO_SERVING_CERTIFICATE), 'the kubelet’s reason in the log');
    secure.setCertificate(testLeaf(ca, key, { commonName: 'system:node:n1', organizations: ['system:nodes'], notBeforeMs: NOW - 60_000, notAfterMs: NOW + 3600_000 }), key);
    assert.equal((await handshake()).cn, 'system:node:n1');
    assert.equal((await handshake('n1')).cn, 'system:node:n1');
    secure.setCertificate(undefined, undefined);
    assert.ok((await handshake()).error, 'refused again without a certificate');
  });

  it('the serving manager hands 10250 each issued pair, and none once it expires with no successor', async () => {
    const clock = new FakeClock(NOW);
    let down = false;
    const managers = createCertificateManagers(
      { nodeName: 'n1', certDir: bed.dir(), kubeconfig: 'kubeconfig', rotateCertificates: false, serverTLSBootstrap: true },
      {
        clock,
        logger: rec.logger,
        addresses: () => [{ type: 'InternalIP', address: '10.0.0.5' }],
        initialServing: { certPem: ca.certPem, source: 'generated' },
        newKeyPem: () => key,
        request: async (spec) => {
          if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
          return testLeaf(ca, spec.keyPem, { commonName: spec.commonName, organizations: spec.organizations, ips: spec.ipAddresses ?? [], notBeforeMs: clock.now(), notAfterMs: clock.now() + 100_000 });
        },
      },
    );
    const handed: Array<string | undefined> = [];
    managers.followServing((p) => handed.push(p ? 'pair' : undefined));
    managers.start();
    await clock.step(0);
    assert.deepEqual(handed, ['pair']);
    down = true;
    await clock.step(100_000);
    assert.deepEqual(handed, ['pair'], 'still valid at notAfter');
    await clock.step(1_000);
    assert.deepEqual(handed, ['pair', undefined], 'expired, none issued since');
    down = false;
    await clock.step(40_000);
    assert.deepEqual(handed, ['pair', undefined, 'pair'], 'the next issued pair');
    managers.stop();
  });
});

describe('the certificate metrics on the read-only port', () => {
  it('GET /metrics on 10255 has the kubelet_certificate_manager_* series', async () => {
    const r = await doRequest(`http://127.0.0.1:${roPort}/metrics`);
    assert.equal(r.status, 200);
    assert.match(r.body, /^# kubelet/, 'after the kubelet registry');
    assert.match(r.body, /^kubelet_certificate_manager_client_ttl_seconds 3000$/m);
    assert.match(r.body, /^kubelet_certificate_manager_client_expiration_renew_errors 0$/m);
    assert.match(r.body, /^kubelet_certificate_manager_server_ttl_seconds \+Inf$/m);
    assert.match(r.body, /^kubelet_server_expiration_renew_errors 0$/m);
  });
});
