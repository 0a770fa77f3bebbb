// podCIDR / --pod-cidr: the kubelet's name and default ("", KubeletConfiguration v1beta1); a value that is not a
// CIDR stops the agent with a message naming it (the kubelet would only log the runtime's refusal).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseConfigFile } from './config-file.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';
import { isCidr } from './pod-cidr-config.ts';

const deps: LoadDeps = { readFile: () => { throw new Error('ENOENT'); }, hostname: () => 'h', cwd: () => '/work' };

it('default "", the flag and the config file field', () => {
  const d = loadConfig([], deps);
  assert.ok(d.ok && !d.help);
  assert.equal(d.config.podCIDR, '');
  const r = loadConfig(['--pod-cidr=10.244.1.0/24'], deps);
  assert.ok(r.ok && !r.help);
  assert.equal(r.config.podCIDR, '10.244.1.0/24');
  const f = parseConfigFile('kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\npodCIDR: 10.96.4.0/22\n', 'c.yaml');
  assert.ok(f.ok);
  assert.equal(f.value.podCIDR, '10.96.4.0/22');
});

it('an invalid CIDR is refused with the value', () => {
  for (const bad of ['10.244.1.0', '10.300.0.0/16', '10.0.0.0/33', 'pods', '10.0.0.0/8,nope']) {
    const r = loadConfig([`--pod-cidr=${bad}`], deps);
    assert.ok(!r.ok, bad);
    assert.match(r.reason, /^invalid configuration: podCIDR: ".*" is not a valid CIDR/, bad);
  }
  assert.deepEqual(['10.0.0.0/8', 'fd00::/64', '192.0.2.0/24'].map(isCidr), [true, true, true]);
});
