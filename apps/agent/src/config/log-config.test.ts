// containerLogMaxSize / containerLogMaxFiles and their flags (the kubelet's names and defaults, 10Mi and 5,
// KubeletConfiguration v1beta1 SetDefaults); bad values stop the agent with NewContainerLogManager's errors.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseConfigFile } from './config-file.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';
import { logRotatePolicy } from './log-config.ts';

const deps: LoadDeps = { readFile: () => { throw new Error('ENOENT'); }, hostname: () => 'h', cwd: () => '/work' };

it('defaults to 10Mi and 5 files', () => {
  const r = loadConfig([], deps);
  assert.ok(r.ok && !r.help);
  assert.equal(r.config.containerLogMaxSize, '10Mi');
  assert.equal(r.config.containerLogMaxFiles, 5);
  assert.deepEqual(logRotatePolicy(r.config), { ok: true, policy: { maxSize: 10 * 1024 * 1024, maxFiles: 5 } });
});

it('reads the flags and the KubeletConfiguration fields', () => {
  const r = loadConfig(['--container-log-max-size=200Ki', '--container-log-max-files=3'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(logRotatePolicy(r.config), { ok: true, policy: { maxSize: 204800, maxFiles: 3 } });
  const f = parseConfigFile('kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\ncontainerLogMaxSize: 1M\ncontainerLogMaxFiles: 2\n', 'c.yaml');
  assert.ok(f.ok);
  assert.equal(f.value.containerLogMaxSize, '1M');
  assert.equal(f.value.containerLogMaxFiles, 2);
});

it('refuses fewer than 2 files and a size that is not a quantity, as the kubelet fails to start', () => {
  assert.deepEqual(loadConfig(['--container-log-max-files=1'], deps), {
    ok: false,
    reason: 'invalid configuration: failed to initialize container log manager: invalid MaxFiles 1, must be > 1',
  });
  assert.deepEqual(loadConfig(['--container-log-max-size=ten'], deps), {
    ok: false,
    reason: `invalid configuration: failed to initialize container log manager: failed to parse container log max size "ten": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
  });
});

it('a negative size turns rotation off (the kubelet uses its stub log manager)', () => {
  const r = loadConfig(['--container-log-max-size=-1'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(logRotatePolicy(r.config), { ok: true, policy: { maxSize: -1, maxFiles: 5 } });
});
