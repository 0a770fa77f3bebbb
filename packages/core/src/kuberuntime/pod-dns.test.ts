// The pod's resolver settings as pkg/kubelet/network/dns/dns.go (GetPodDNS, parseResolvConf, appendDNSConfig,
// formDNSConfigFitsLimits) forms them; cases after dns_test.go (TestParseResolvConf, TestGetPodDNSType,
// TestGetPodDNS, TestGetPodDNSCustom, TestFormDNSSearchFitsLimits, TestFormDNSNameserversFitsLimits).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { parseResolvConf, podDnsConfig, type DnsWarning, type PodDnsSettings } from './pod-dns.ts';

const pod = (spec: Record<string, unknown> = {}): V1Pod => ({
  metadata: { name: 'web', namespace: 'ns1', uid: 'u1' },
  spec: { containers: [{ name: 'c' }], ...spec },
});
const host = { servers: ['10.0.0.53', '10.0.0.54'], searches: ['corp.example', 'example.com'], options: ['timeout:2', 'attempts:3'] };
const cluster: PodDnsSettings = { clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', resolvConfSet: true, nodeIPs: ['192.0.2.10'] };

function run(p: V1Pod, s: PodDnsSettings = cluster, h = host) {
  const warnings: DnsWarning[] = [];
  const cfg = podDnsConfig(p, s, h, (w) => warnings.push(w));
  return { cfg, warnings };
}

describe('parseResolvConf', () => {
  it('nameservers accumulate; the last search and options lines win; comments skipped; trailing dots dropped', () => {
    const r = parseResolvConf('# comment\nnameserver 1.2.3.4\nsearch a.com b.com\nnameserver 5.6.7.8\nsearch foo. bar.com\noptions ndots:5 attempts:2\noptions timeout:1\n');
    assert.deepEqual(r, { servers: ['1.2.3.4', '5.6.7.8'], searches: ['foo', 'bar.com'], options: ['timeout:1'], errors: [] });
  });
  it('an empty nameserver line is an error; blank lines and others are ignored', () => {
    const r = parseResolvConf('nameserver\n\ndomain x\n  nameserver 9.9.9.9  \n');
    assert.deepEqual(r, { servers: ['9.9.9.9'], searches: [], options: [], errors: ['nameserver list is empty '] });
  });
});

describe('GetPodDNS', () => {
  it('ClusterFirst (the default): cluster DNS only, cluster searches before the host\'s, ndots:5', () => {
    assert.deepEqual(run(pod()).cfg, {
      servers: ['10.96.0.10'],
      searches: ['ns1.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example', 'example.com'],
      options: ['ndots:5'],
    });
  });
  it('ClusterFirst without a cluster domain keeps the host searches', () => {
    assert.deepEqual(run(pod(), { ...cluster, clusterDomain: '' }).cfg.searches, ['corp.example', 'example.com']);
  });
  it('ClusterFirst on hostNetwork falls back to Default; ClusterFirstWithHostNet stays with the cluster', () => {
    assert.deepEqual(run(pod({ hostNetwork: true })).cfg, host);
    assert.deepEqual(run(pod({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' })).cfg.servers, ['10.96.0.10']);
  });
  it('Default: the host\'s resolv.conf', () => {
    assert.deepEqual(run(pod({ dnsPolicy: 'Default' })).cfg, host);
  });
  it('None: only dnsConfig', () => {
    const r = run(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['203.0.113.1'], searches: ['my.dns.search.suffix'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] } }));
    assert.deepEqual(r.cfg, { servers: ['203.0.113.1'], searches: ['my.dns.search.suffix'], options: ['ndots:2', 'edns0'] });
  });
  it('dnsConfig is appended: duplicates dropped, options merged by name with the pod\'s value winning', () => {
    const r = run(pod({ dnsConfig: { nameservers: ['10.96.0.10', '203.0.113.1'], searches: ['cluster.local', 'extra'], options: [{ name: 'ndots', value: '2' }, { name: 'single-request' }] } }));
    assert.deepEqual(r.cfg, {
      servers: ['10.96.0.10', '203.0.113.1'],
      searches: ['ns1.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example', 'example.com', 'extra'],
      options: ['ndots:2', 'single-request'],
    });
  });
  it('no clusterDNS: MissingClusterDNS on the node and the pod, then the Default policy', () => {
    const r = run(pod(), { ...cluster, clusterDNS: [] });
    assert.deepEqual(r.cfg, host);
    const msg = 'kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.';
    assert.deepEqual(r.warnings, [
      { target: 'node', reason: 'MissingClusterDNS', message: msg },
      { target: 'pod', reason: 'MissingClusterDNS', message: `pod: "web_ns1(u1)". ${msg}` },
    ]);
  });
  it('--resolv-conf="": a local resolver per node IP family and search "."', () => {
    const none = { servers: [], searches: [], options: [] };
    assert.deepEqual(run(pod({ dnsPolicy: 'Default' }), { ...cluster, resolvConfSet: false, nodeIPs: ['192.0.2.10', '2001:db8::1'] }, none).cfg, { servers: ['127.0.0.1', '::1'], searches: ['.'], options: [] });
    assert.deepEqual(run(pod({ dnsPolicy: 'Default' }), { ...cluster, resolvConfSet: false, nodeIPs: [] }, none).cfg.servers, ['127.0.0.1']);
  });
});

describe('limits', () => {
  it('at most 3 nameservers (DNSConfigForming)', () => {
    const r = run(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'] } }));
    assert.deepEqual(r.cfg.servers, ['1.1.1.1', '2.2.2.2', '3.3.3.3']);
    assert.deepEqual(r.warnings, [{ target: 'pod', reason: 'DNSConfigForming', message: 'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 1.1.1.1 2.2.2.2 3.3.3.3' }]);
  });
  it('at most 32 search paths, none over 253 characters, 2048 characters in all', () => {
    const many = Array.from({ length: 40 }, (_, i) => `s${i}.example`);
    const r = run(pod({ dnsPolicy: 'None', dnsConfig: { searches: many } }));
    assert.deepEqual(r.cfg.searches, many.slice(0, 32));
    assert.equal(r.warnings[0]?.message, `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${many.slice(0, 32).join(' ')}`);
    const long = 'a'.repeat(254);
    assert.deepEqual(run(pod({ dnsPolicy: 'None', dnsConfig: { searches: ['ok.example', long] } })).cfg.searches, ['ok.example']);
    const big = Array.from({ length: 10 }, (_, i) => `${String(i)}${'b'.repeat(249)}`); // 10 × 250 chars + 9 spaces = 2509
    const cut = run(pod({ dnsPolicy: 'None', dnsConfig: { searches: big } })).cfg.searches;
    assert.equal(cut.length, 8, '8 × 250 + 7 = 2007 ≤ 2048');
  });
});
