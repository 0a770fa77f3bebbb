// rotateCertificates (--rotate-certificates) and serverTLSBootstrap (--rotate-server-certificates, the kubelet's
// deprecated flag for it): both off by default, read from flags and the KubeletConfiguration file, shown by /configz.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { configzBody } from './configz.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';

const file = 'kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nauthorization:\n  mode: AlwaysAllow\nrotateCertificates: true\nserverTLSBootstrap: true\n';
const deps: LoadDeps = { readFile: () => file, hostname: () => 'h', cwd: () => '/work' };

it('is off by default and on from the flags or the file', () => {
  const none = loadConfig([], deps);
  assert.ok(none.ok && !none.help);
  assert.deepEqual([none.config.rotateCertificates, none.config.serverTLSBootstrap], [false, false]);
  const flags = loadConfig(['--rotate-certificates', '--rotate-server-certificates'], deps);
  assert.ok(flags.ok && !flags.help);
  assert.deepEqual([flags.config.rotateCertificates, flags.config.serverTLSBootstrap], [true, true]);
  const fromFile = loadConfig(['--config', '/etc/kubelet.yaml'], deps);
  assert.ok(fromFile.ok && !fromFile.help);
  const k = configzBody(fromFile.config).kubeletconfig;
  assert.deepEqual([k.rotateCertificates, k.serverTLSBootstrap], [true, true]);
});
