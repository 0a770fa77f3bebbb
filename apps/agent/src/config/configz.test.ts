// /configz reports the running configuration as the kubelet does: {"kubeletconfig": {...}} with the
// KubeletConfiguration v1beta1 field names, durations printed as Go prints them (time.Duration.String), maps as
// objects, defaults included (SetDefaults_KubeletConfiguration), no kind/apiVersion (the kubelet's converted struct
// has an empty TypeMeta; the "Generate the configuration file" task in the Kubernetes docs adds them with jq).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadConfig, type LoadDeps } from './load-config.ts';
import { parseConfigFile } from './config-file.ts';
import { configzBody } from './configz.ts';

const file = [
  'kind: KubeletConfiguration',
  'apiVersion: kubelet.config.k8s.io/v1beta1',
  'syncFrequency: 90s',
  'evictionHard:',
  '  memory.available: 200Mi',
  'authentication:',
  '  anonymous:',
  '    enabled: false',
  'authorization:',
  '  mode: AlwaysAllow',
  'containerLogMaxSize: 5Mi',
].join('\n');
const deps: LoadDeps = { readFile: () => file, hostname: () => 'node-a', cwd: () => '/work' };

it('reports the file\'s values and the defaults in the kubelet\'s shapes', () => {
  const r = loadConfig(['--config', '/etc/kubelet.yaml'], deps);
  assert.ok(r.ok && !r.help);
  const { kubeletconfig: k } = configzBody(r.config);
  assert.equal(k.syncFrequency, '1m30s');
  assert.equal(k.fileCheckFrequency, '20s');
  assert.equal(k.runtimeRequestTimeout, '2m0s');
  assert.deepEqual(k.evictionHard, { 'memory.available': '200Mi' });
  assert.deepEqual(k.authentication && (k.authentication as Record<string, unknown>).anonymous, { enabled: false });
  assert.equal((k.authorization as Record<string, unknown>).mode, 'AlwaysAllow');
  assert.equal(k.healthzBindAddress, '127.0.0.1');
  assert.equal(k.port, 10250);
  assert.equal(k.readOnlyPort, 0);
  assert.equal(k.maxPods, 110);
  assert.equal(k.containerLogMaxSize, '5Mi');
  assert.equal(k.containerLogMaxFiles, 5);
  assert.equal('kind' in k, false);
  assert.equal('apiVersion' in k, false);
});

it('what /configz reports, given back as a config file (with kind and apiVersion added), reads back the same', () => {
  const r = loadConfig(['--config', '/etc/kubelet.yaml'], deps);
  assert.ok(r.ok && !r.help);
  const body = { kind: 'KubeletConfiguration', apiVersion: 'kubelet.config.k8s.io/v1beta1', ...configzBody(r.config).kubeletconfig };
  const again = parseConfigFile(JSON.stringify(body), 'configz.json');
  assert.ok(again.ok);
  assert.deepEqual(again.warnings, []);
  const second = loadConfig(['--config', '/etc/kubelet.yaml'], { ...deps, readFile: () => JSON.stringify(body) });
  assert.ok(second.ok && !second.help);
  assert.deepEqual(configzBody(second.config), configzBody(r.config));
});
