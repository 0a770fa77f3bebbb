// --bootstrap-kubeconfig / --cert-dir: the kubelet's flag names; --cert-dir defaults to <root-dir>/pki (the kubelet's
// /var/lib/kubelet/pki); relative paths resolve against the working directory; bootstrap needs --kubeconfig.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadConfig, type LoadDeps } from './load-config.ts';

const deps: LoadDeps = { readFile: () => { throw new Error('ENOENT'); }, hostname: () => 'h', cwd: () => '/work' };

it('cert-dir defaults under the root dir; relative paths resolve; bootstrap without --kubeconfig is refused', () => {
  const d = loadConfig(['--root-dir', '/var/lib/kubelet'], deps);
  assert.ok(d.ok && !d.help);
  assert.deepEqual([d.config.certDir, d.config.bootstrapKubeconfig], ['/var/lib/kubelet/pki', undefined]);
  const r = loadConfig(['--kubeconfig', 'kc', '--bootstrap-kubeconfig=boot.conf', '--cert-dir', 'certs'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual([r.config.kubeconfig, r.config.bootstrapKubeconfig, r.config.certDir], ['/work/kc', '/work/boot.conf', '/work/certs']);
  assert.deepEqual(loadConfig(['--bootstrap-kubeconfig', 'boot.conf'], deps), {
    ok: false,
    reason: 'invalid configuration: --bootstrap-kubeconfig needs --kubeconfig: the path the bootstrapped kubeconfig is written to',
  });
});
