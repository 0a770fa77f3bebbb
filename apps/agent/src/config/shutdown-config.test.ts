// shutdownGracePeriod / shutdownGracePeriodCriticalPods: KubeletConfiguration fields only (default 0s, off), the
// kubelet's validation message (pkg/kubelet/apis/config/validation, v1.28) and migrateConfig's groups;
// --shutdown-on-sigterm is nodelet's opt-in.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadConfig, type LoadDeps } from './load-config.ts';
import { shutdownGroups } from './shutdown-config.ts';

const file = (body: string): LoadDeps => ({
  readFile: () => `kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nauthorization: { mode: AlwaysAllow }\n${body}`,
  hostname: () => 'h',
  cwd: () => '/work',
});

it('is off by default: no groups, SIGTERM is a plain stop', () => {
  const r = loadConfig(['--config=/c.yaml'], file(''));
  assert.ok(r.ok && !r.help);
  assert.equal(r.config.shutdownGracePeriodMs, 0);
  assert.equal(r.config.shutdownOnSigterm, false);
  assert.deepEqual(shutdownGroups(r.config), []);
});

it('reads the config file fields into the regular and critical groups; --shutdown-on-sigterm opts in', () => {
  const r = loadConfig(['--config=/c.yaml', '--shutdown-on-sigterm'], file('shutdownGracePeriod: 30s\nshutdownGracePeriodCriticalPods: 10s\n'));
  assert.ok(r.ok && !r.help);
  assert.equal(r.config.shutdownOnSigterm, true);
  assert.deepEqual(shutdownGroups(r.config), [
    { priority: 0, shutdownGracePeriodSeconds: 20 },
    { priority: 2000000000, shutdownGracePeriodSeconds: 10 },
  ]);
});

it('refuses a critical share above the period with the kubelet message', () => {
  const r = loadConfig(['--config=/c.yaml'], file('shutdownGracePeriod: 10s\nshutdownGracePeriodCriticalPods: 1m\n'));
  assert.deepEqual(r, {
    ok: false,
    reason: 'invalid configuration: shutdownGracePeriod (10s) must be >= 0, shutdownGracePeriodCriticalPods (1m0s) must be >= 0 and <= shutdownGracePeriod',
  });
});

it('has no --shutdown-grace-period flag (the kubelet has none either)', () => {
  const r = loadConfig(['--shutdown-grace-period=30s'], file(''));
  assert.equal(r.ok, false);
});

it('shutdownGracePeriodByPodPriority: the groups as given; not together with shutdownGracePeriod (the kubelet message)', () => {
  const list = 'shutdownGracePeriodByPodPriority:\n  - { priority: 100000, shutdownGracePeriodSeconds: 30 }\n  - { priority: 0, shutdownGracePeriodSeconds: 60 }\n';
  const r = loadConfig(['--config=/c.yaml'], file(list));
  assert.ok(r.ok && !r.help);
  assert.deepEqual(shutdownGroups(r.config), [
    { priority: 100000, shutdownGracePeriodSeconds: 30 },
    { priority: 0, shutdownGracePeriodSeconds: 60 },
  ]);
  assert.deepEqual(loadConfig(['--config=/c.yaml'], file(`shutdownGracePeriod: 30s\n${list}`)), {
    ok: false,
    reason: 'invalid configuration: Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time',
  });
  assert.deepEqual(loadConfig(['--config=/c.yaml'], file('shutdownGracePeriodByPodPriority:\n  - { priority: high }\n')), {
    ok: false,
    reason: 'invalid configuration: shutdownGracePeriodByPodPriority[0].priority: expected an integer (int32), got "high"',
  });
});
