// clusterDNS / clusterDomain / resolvConf and --cluster-dns / --cluster-domain / --resolv-conf: the kubelet's
// names and defaults (resolvConf /etc/resolv.conf, KubeletConfiguration v1beta1 SetDefaults); an entry of
// clusterDNS that is not an IP is skipped (the kubelet logs "Invalid clusterDNS IP" and goes on).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseConfigFile } from './config-file.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';
import { coreDnsConfig } from './dns-config.ts';

const deps: LoadDeps = { readFile: () => { throw new Error('ENOENT'); }, hostname: () => 'h', cwd: () => '/work' };

it('defaults: no cluster DNS, no domain, /etc/resolv.conf', () => {
  const r = loadConfig([], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(coreDnsConfig(r.config), { dns: { clusterDNS: [], clusterDomain: '', resolvConf: '/etc/resolv.conf' }, invalid: [] });
});

it('flags and config file fields', () => {
  const r = loadConfig(['--cluster-dns=10.96.0.10,fd00::a', '--cluster-domain=cluster.local', '--resolv-conf='], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(coreDnsConfig(r.config).dns, { clusterDNS: ['10.96.0.10', 'fd00::a'], clusterDomain: 'cluster.local', resolvConf: '' });
  const f = parseConfigFile('kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nclusterDNS: ["10.0.0.10"]\nclusterDomain: k8s.test\nresolvConf: /run/systemd/resolve/resolv.conf\n', 'c.yaml');
  assert.ok(f.ok);
  assert.deepEqual([f.value.clusterDNS, f.value.clusterDomain, f.value.resolvConf], [['10.0.0.10'], 'k8s.test', '/run/systemd/resolve/resolv.conf']);
});

it('a clusterDNS entry that is not an IP is dropped and reported', () => {
  const r = loadConfig(['--cluster-dns=10.96.0.10,dns.example'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(coreDnsConfig(r.config), { dns: { clusterDNS: ['10.96.0.10'], clusterDomain: '', resolvConf: '/etc/resolv.conf' }, invalid: ['dns.example'] });
});
