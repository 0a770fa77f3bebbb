// featureGates / --feature-gates: the kubelet's field and flag (KubeletConfiguration v1beta1, component-base
// featuregate): a map of names to booleans; a flag value that is not a Go boolean is refused with the kubelet's
// message (strconv.ParseBool's); names nodelet does not consult are accepted.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseConfigFile } from './config-file.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';
import { featureGatesOf } from './feature-gates-config.ts';
import { configzBody } from './configz.ts';

const deps: LoadDeps = { readFile: () => { throw new Error('ENOENT'); }, hostname: () => 'h', cwd: () => '/work' };
const FILE = 'kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\n';

it('the flag and the config file field, as booleans', () => {
  const r = loadConfig(['--feature-gates=KubeletPodResourcesGet=true,GracefulNodeShutdown=False'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(featureGatesOf(r.config), { ok: true, gates: { KubeletPodResourcesGet: true, GracefulNodeShutdown: false } });
  const f = parseConfigFile(`${FILE}featureGates:\n  KubeletPodResourcesGet: true\n`, 'c.yaml');
  assert.ok(f.ok);
  assert.deepEqual(featureGatesOf(f.value), { ok: true, gates: { KubeletPodResourcesGet: true } });
  const d = loadConfig([], deps);
  assert.ok(d.ok && !d.help);
  assert.deepEqual(featureGatesOf(d.config), { ok: true, gates: {} });
});

it('a value that is not a boolean is refused', () => {
  const r = loadConfig(['--feature-gates=KubeletPodResourcesGet=maybe'], deps);
  assert.ok(!r.ok);
  assert.equal(r.reason, 'invalid configuration: invalid value of KubeletPodResourcesGet=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax');
  const f = parseConfigFile(`${FILE}featureGates:\n  KubeletPodResourcesGet: "yes"\n`, 'c.yaml');
  assert.ok(!f.ok);
  assert.equal(f.reason, 'c.yaml: featureGates: expected a map of feature names to true or false, got {"KubeletPodResourcesGet":"yes"}');
});

it('/configz reports the gates as booleans, as the kubelet (also when they came from the flag)', () => {
  const r = loadConfig(['--feature-gates=KubeletPodResourcesGet=true'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(configzBody(r.config).kubeletconfig.featureGates, { KubeletPodResourcesGet: true });
  const d = loadConfig([], deps);
  assert.ok(d.ok && !d.help);
  assert.equal(configzBody(d.config).kubeletconfig.featureGates, undefined);
});
