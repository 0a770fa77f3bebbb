/**
 * The certificate manager against client-go's certificate_manager.go: the rotation deadline (notBefore + 70–90 %
 * of the lifetime, jitteryDuration = wait.Jitter(d, 0.2) - 0.3 d), an immediate request without a pair, the
 * backoff of a failing request (2 s, 4 s, 8 s, 16 s with Jitter 0.1 and 5 steps, then every 32 s) while the old
 * pair stays in use, and the metrics names of pkg/kubelet/certificate/kubelet.go. Injected clock, fake CSR client.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CertificateManager, jitteryDuration } from './manager.ts';
import { canonicalIp, satisfies } from './template.ts';
import { createCertificateMetrics } from './manager-metrics.ts';
import { CertificateStore } from './store.ts';
import { certTestBed, testLeaf } from './testing.ts';

const bed = certTestBed('nodelet-certmgr-');
const { root, ca, key, harness } = bed;
const T0 = bed.t0;

describe('rotation deadline (jitteryDuration)', () => {
  it('is 70 % of the lifetime at the low end of the jitter, 80 % in the middle, under 90 % at the top', () => {
    const lifetime = 100 * 60_000;
    assert.equal(jitteryDuration(lifetime, () => 0), 70 * 60_000);
    assert.equal(jitteryDuration(lifetime, () => 0.5), 80 * 60_000);
    assert.ok(jitteryDuration(lifetime, () => 0.999999) < 90 * 60_000);
  });

  it('stays within [70 %, 90 %) for any lifetime and draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 10 * 365 * 86_400_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (total, r) => {
        const d = jitteryDuration(total, () => r);
        const ulp = total * 1e-12; // float rounding of a sum of terms up to 10 years in ms
        return d >= total * 0.7 - ulp && d < total * 0.9 + ulp;
      }),
    );
  });

  it("is the stored certificate's notBefore + jitteryDuration", () => {
    const h = harness({ initialLifetimeMs: 1000_000, lifetimeMs: 1000_000, random: () => 0.5 });
    assert.equal(h.manager.nextRotationDeadline(), T0 + 800_000);
  });
});

describe('CertificateManager', () => {
  it('without a pair requests one at once: the node identity, the signer, the usages, a fresh key', async () => {
    const h = harness({ lifetimeMs: 600_000 });
    assert.equal(h.manager.current(), undefined);
    assert.equal(h.manager.ttlSeconds(), Number.POSITIVE_INFINITY);
    const seen: string[] = [];
    h.manager.onRotate((p) => seen.push(p.leaf.subject));
    h.manager.start();
    await h.clock.step(0);
    assert.equal(h.requests.length, 1);
    const r = h.requests[0];
    assert.equal(r?.signerName, 'kubernetes.io/kube-apiserver-client-kubelet');
    assert.deepEqual(r?.usages, ['digital signature', 'key encipherment', 'client auth']);
    assert.equal(r?.commonName, 'system:node:n1');
    assert.deepEqual(r?.organizations, ['system:nodes']);
    assert.equal(seen.length, 1);
    assert.match(h.manager.current()?.leaf.subject ?? '', /CN=system:node:n1/);
    assert.equal(h.manager.ttlSeconds(), 600);
    assert.equal(h.store.current().certPem, h.manager.current()?.certPem);
    h.manager.stop();
  });

  it('rotates at the deadline, not before, and again at the next one', async () => {
    const h = harness({ initialLifetimeMs: 100_000, lifetimeMs: 100_000 });
    h.manager.start();
    await h.clock.step(69_999);
    assert.equal(h.requests.length, 0);
    assert.equal(h.manager.status().nextRotation, new Date(T0 + 70_000).toISOString());
    await h.clock.step(1);
    assert.equal(h.requests.length, 1);
    assert.equal(h.manager.status().rotations, 1);
    // The new pair: notBefore T0+70 s, so the next deadline is T0+140 s.
    await h.clock.step(69_000);
    assert.equal(h.requests.length, 1);
    await h.clock.step(1_000);
    assert.equal(h.requests.length, 2);
    h.manager.stop();
  });

  it('retries a failing request with 2 s, 4 s, 8 s, 16 s, then every 32 s, keeping the old pair', async () => {
    let errors = 0;
    const h = harness({ initialLifetimeMs: 1000_000, lifetimeMs: 1000_000, onRenewError: () => errors++ });
    const before = h.store.current().certPem;
    h.setDown(true);
    h.manager.start();
    const attemptsAt: number[] = [];
    for (let t = 0; t <= 800_000; t += 1000) {
      const n = h.requests.length;
      await h.clock.step(t === 0 ? 0 : 1000);
      if (h.requests.length > n) attemptsAt.push((h.clock.now() - T0) / 1000);
    }
    assert.deepEqual(attemptsAt, [700, 702, 706, 714, 730, 762, 794]);
    assert.equal(errors, 7);
    assert.equal(h.manager.current()?.certPem, before, 'the old pair stays in use');
    const s = h.manager.status();
    assert.equal(s.renewErrors, 7);
    assert.match(s.lastError ?? '', /ECONNREFUSED/);
    assert.equal(s.nextRotation, new Date(T0 + 826_000).toISOString());
    assert.ok(h.log.records.some((r) => r.msg === 'Reached backoff limit, still unable to rotate certs'));
    h.setDown(false);
    await h.clock.step(26_000);
    assert.equal(h.manager.status().rotations, 1);
    assert.equal(h.manager.status().lastError, undefined);
    assert.notEqual(h.manager.current()?.certPem, before);
    h.manager.stop();
  });

  it('treats an expired pair as none: rotates at once, ttl +Inf until then', async () => {
    const h = harness({ initialLifetimeMs: 10_000, lifetimeMs: 10_000 });
    await h.clock.step(20_000);
    const m = new CertificateManager(h.deps);
    assert.equal(m.current(), undefined);
    assert.equal(m.ttlSeconds(), Number.POSITIVE_INFINITY);
    assert.equal(m.nextRotationDeadline(), h.clock.now());
  });
});

describe('satisfies (certSatisfiesTemplate)', () => {
  const cert = testLeaf(ca, key, { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'], ips: ['10.0.0.5', '::1'], notBeforeMs: T0, notAfterMs: T0 + 1000_000 });
  const leaf = new CertificateStore({ pairNamePrefix: 'x', certDirectory: join(root, 'sat'), now: () => T0 }).update(cert, key).leaf;
  it('holds when the CN matches and every DNS name, IP and org asked for is present', () => {
    assert.ok(satisfies(leaf, { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'], ipAddresses: ['10.0.0.5', '0:0:0:0:0:0:0:1'] }));
  });
  it('fails on another CN, a missing IP, DNS name or org', () => {
    assert.ok(!satisfies(leaf, { commonName: 'system:node:n2', organizations: ['system:nodes'] }));
    assert.ok(!satisfies(leaf, { commonName: 'system:node:n1', organizations: ['system:nodes'], ipAddresses: ['10.0.0.6'] }));
    assert.ok(!satisfies(leaf, { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1.example'] }));
    assert.ok(!satisfies(leaf, { commonName: 'system:node:n1', organizations: ['system:masters'] }));
  });
  it('compares IPv6 addresses in one spelling', () => {
    assert.equal(canonicalIp('::1'), '0:0:0:0:0:0:0:1');
    assert.equal(canonicalIp('FD00:0:0::0A'), 'fd00:0:0:0:0:0:0:a');
    assert.equal(canonicalIp('10.0.0.1'), '10.0.0.1');
  });
});

describe('certificate metrics', () => {
  it('exposes the kubelet names: client ttl + renew errors, server ttl + renew errors + rotation age', async () => {
    const h = harness({ initialLifetimeMs: 100_000, lifetimeMs: 100_000 });
    const m = createCertificateMetrics();
    m.track('client', h.manager);
    m.track('server', h.manager);
    m.clientRenewErrors();
    m.serverRotationAge(90);
    const text = await m.registry.metrics();
    assert.match(text, /^kubelet_certificate_manager_client_ttl_seconds 100$/m);
    assert.match(text, /^kubelet_certificate_manager_client_expiration_renew_errors 1$/m);
    assert.match(text, /^kubelet_certificate_manager_server_ttl_seconds 100$/m);
    assert.match(text, /^kubelet_server_expiration_renew_errors 0$/m);
    assert.match(text, /^kubelet_certificate_manager_server_rotation_seconds_bucket\{le="3600"\} 1$/m);
    assert.match(text, /^# TYPE kubelet_certificate_manager_client_ttl_seconds gauge$/m);
  });
});
