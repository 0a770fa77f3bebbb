// --allowed-unsafe-sysctls / allowedUnsafeSysctls (the kubelet's names); a bad entry stops the agent as
// NewAllowlist's error stops the kubelet.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseFlags } from './flags.ts';
import { parseConfigFile } from './config-file.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';

const deps: LoadDeps = { readFile: () => { throw new Error('ENOENT'); }, hostname: () => 'h', cwd: () => '/work' };

it('--allowed-unsafe-sysctls takes a comma-separated list', () => {
  const r = parseFlags(['--allowed-unsafe-sysctls=kernel.msg*,net.core.somaxconn']);
  assert.ok(r.ok);
  assert.deepEqual(r.value.settings.allowedUnsafeSysctls, ['kernel.msg*', 'net.core.somaxconn']);
});

it('allowedUnsafeSysctls in the KubeletConfiguration is a list of strings', () => {
  const ok = parseConfigFile('kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nallowedUnsafeSysctls: ["kernel.shmmax"]\n', 'c.yaml');
  assert.ok(ok.ok);
  assert.deepEqual(ok.value.allowedUnsafeSysctls, ['kernel.shmmax']);
  const bad = parseConfigFile('kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nallowedUnsafeSysctls: kernel.shmmax\n', 'c.yaml');
  assert.deepEqual(bad, { ok: false, reason: 'c.yaml: allowedUnsafeSysctls: expected a list of strings, got "kernel.shmmax"' });
});

it('an allowlist entry that is not namespaced is an invalid configuration', () => {
  const bad = loadConfig(['--allowed-unsafe-sysctls=kernel.pid_max'], deps);
  assert.deepEqual(bad, { ok: false, reason: 'invalid configuration: allowedUnsafeSysctls: the sysctl "kernel.pid_max" are not known to be namespaced' });
  const ok = loadConfig(['--allowed-unsafe-sysctls=kernel.shmmax'], deps);
  assert.ok(ok.ok && !ok.help && ok.config.allowedUnsafeSysctls?.[0] === 'kernel.shmmax');
});
