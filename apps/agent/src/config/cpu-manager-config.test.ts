// cpuManagerPolicy, cpuManagerPolicyOptions, cpuManagerReconcilePeriod, reservedSystemCPUs, kubeReserved and
// systemReserved from flags and the KubeletConfiguration file (the kubelet's names and defaults: none, 10s), the
// kubelet's validation messages, and server.go's rule that reservedSystemCPUs stands for the reservations' cpu.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { configzBody } from './configz.ts';
import { coreCpuManager, reservedResources } from './cpu-manager-config.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';

const file = [
  'kind: KubeletConfiguration', 'apiVersion: kubelet.config.k8s.io/v1beta1', 'cpuManagerPolicy: static',
  'cpuManagerPolicyOptions: { full-pcpus-only: "true" }', 'cpuManagerReconcilePeriod: 5s', 'reservedSystemCPUs: "0,2"',
  'kubeReserved: { cpu: 500m, memory: 1Gi }', 'systemReserved: { cpu: "1" }', 'authorization: { mode: AlwaysAllow }', '',
].join('\n');
const deps: LoadDeps = { readFile: () => file, hostname: () => 'h', cwd: () => '/work' };

it('defaults to none and 10s; reads the flags and the file; /configz shows them', () => {
  const none = loadConfig([], deps);
  assert.ok(none.ok && !none.help);
  assert.deepEqual(coreCpuManager(none.config), { policy: 'none', reconcilePeriodMs: 10_000 });
  assert.deepEqual(reservedResources(none.config), {});
  const flags = loadConfig(['--cpu-manager-policy', 'static', '--reserved-cpus', '1', '--kube-reserved', 'cpu=200m,memory=500Mi', '--cpu-manager-reconcile-period', '2s'], deps);
  assert.ok(flags.ok && !flags.help);
  assert.deepEqual(coreCpuManager(flags.config), { policy: 'static', reconcilePeriodMs: 2_000, reservedSystemCPUs: '1' });
  // --reserved-cpus replaces the cpu of both reservations: systemReserved.cpu = the number of CPUs named.
  assert.deepEqual(reservedResources(flags.config), { kubeReserved: { memory: '500Mi' }, systemReserved: { cpu: '1' } });
  const fromFile = loadConfig(['--config', '/etc/kubelet.yaml'], deps);
  assert.ok(fromFile.ok && !fromFile.help);
  assert.deepEqual(coreCpuManager(fromFile.config), { policy: 'static', policyOptions: { 'full-pcpus-only': 'true' }, reconcilePeriodMs: 5_000, reservedSystemCPUs: '0,2' });
  assert.deepEqual(reservedResources(fromFile.config), { kubeReserved: { memory: '1Gi' }, systemReserved: { cpu: '2' } });
  const k = configzBody(fromFile.config).kubeletconfig;
  assert.deepEqual([k.cpuManagerPolicy, k.cpuManagerReconcilePeriod, k.reservedSystemCPUs], ['static', '5s', '0,2']);
});

it('refuses an unknown policy, an unparsable CPU list and a bad quantity with the kubelet messages', () => {
  const bad = (args: string[]) => {
    const r = loadConfig(args, deps);
    return r.ok ? '' : r.reason;
  };
  assert.match(bad(['--cpu-manager-policy', 'dynamic']), /unknown policy: "dynamic"/);
  assert.match(bad(['--reserved-cpus', '0-x']), /invalid configuration: unable to parse reservedSystemCPUs \(--reserved-cpus\) 0-x, error: strconv\.Atoi: parsing "x": invalid syntax/);
  assert.match(bad(['--system-reserved', 'cpu=lots']), /systemReserved: invalid quantity "lots" for cpu/);
});
