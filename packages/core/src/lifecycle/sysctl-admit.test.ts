// Upstream: test/e2e/common/node/sysctl.go "Sysctls [LinuxOnly] [NodeConformance] should not launch unsafe, but
// not explicitly enabled sysctls on the node" — the kubelet's sysctl allowlist (pkg/kubelet/sysctl/allowlist.go):
// expected reasons and messages are the kubelet's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { createAdmitter, admitHandlers } from './admit.ts';
import { createSysctlAllowlist, toDotSeparated } from './sysctl-admit.ts';
import type { AdmitNode } from './types.ts';

const node: AdmitNode = { name: 'n1', labels: {}, allocatable: { cpuMilli: 2000, memoryBytes: 1024 ** 3, pods: 10 } };

function pod(sysctls: Array<[string, string]>, host: { hostNetwork?: boolean; hostIPC?: boolean } = {}): V1Pod {
  return {
    metadata: { name: 'p', namespace: 'default', uid: 'u' },
    spec: {
      ...host,
      securityContext: { sysctls: sysctls.map(([name, value]) => ({ name, value })) },
      containers: [{ name: 'c', image: 'x' }],
    },
  };
}

function admitWith(allowed: string[]) {
  const h = admitHandlers(allowed);
  assert.ok(h.ok);
  return createAdmitter(h.handlers);
}

test('an unsafe sysctl not explicitly allowed: SysctlForbidden "forbidden sysctl: ... not allowlisted"', () => {
  // The upstream spec's pod: kernel.shm_rmid_forced (safe), kernel.shmmax and kernel.msgmax (unsafe, not enabled).
  const p = pod([['kernel.shm_rmid_forced', '1'], ['kernel.shmmax', '100000000'], ['kernel.msgmax', '1000000']]);
  assert.deepEqual(admitWith([])(p, [], node), {
    admit: false,
    reason: 'SysctlForbidden',
    message: 'forbidden sysctl: "kernel.shmmax" not allowlisted',
  });
});

test('safe sysctls are admitted without any allowlist flag', () => {
  const safe = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range',
    'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.ip_local_reserved_ports'];
  assert.deepEqual(admitWith([])(pod(safe.map((s) => [s, '1'])), [], node), { admit: true });
});

test('--allowed-unsafe-sysctls admits the named sysctls and patterns ending in *', () => {
  const a = admitWith(['kernel.shmmax', 'kernel.msg*', 'net.core.somaxconn']);
  assert.deepEqual(a(pod([['kernel.shmmax', '1'], ['kernel.msgmax', '1'], ['net.core.somaxconn', '1024']]), [], node), { admit: true });
  assert.equal((a(pod([['kernel.sem', '1']]), [], node) as { reason: string }).reason, 'SysctlForbidden');
});

test('a net or ipc sysctl is refused when the pod shares that namespace with the host', () => {
  const a = admitWith([]);
  assert.deepEqual(a(pod([['net.ipv4.tcp_syncookies', '1']], { hostNetwork: true }), [], node), {
    admit: false,
    reason: 'SysctlForbidden',
    message: 'forbidden sysctl: "net.ipv4.tcp_syncookies" not allowed with host net enabled',
  });
  assert.deepEqual(a(pod([['kernel.shm_rmid_forced', '1']], { hostIPC: true }), [], node), {
    admit: false,
    reason: 'SysctlForbidden',
    message: 'forbidden sysctl: "kernel.shm_rmid_forced" not allowed with host ipc enabled',
  });
});

test('slash-separated names are read as the kubelet reads them', () => {
  assert.equal(toDotSeparated('net/ipv4/conf/eth0.1/rp_filter'), 'net.ipv4.conf.eth0/1.rp_filter');
  assert.equal(toDotSeparated('net.ipv4.tcp_syncookies'), 'net.ipv4.tcp_syncookies');
  assert.deepEqual(admitWith([])(pod([['net/ipv4/tcp_syncookies', '1']]), [], node), { admit: true });
});

test('an allowlist entry that is not a sysctl pattern or not namespaced is an error (the kubelet does not start)', () => {
  assert.deepEqual(createSysctlAllowlist(['kernel.pid_max']), { ok: false, reason: 'the sysctl "kernel.pid_max" are not known to be namespaced' });
  assert.deepEqual(createSysctlAllowlist(['vm.*']), { ok: false, reason: 'the sysctls "vm.*" are not known to be namespaced' });
  const bad = createSysctlAllowlist(['Kernel.SHMMAX']);
  assert.ok(!bad.ok && bad.reason.startsWith('sysctl "Kernel.SHMMAX" must have at most 253 characters and match regex '));
});

test('a pod without sysctls is not asked about them', () => {
  assert.deepEqual(admitWith([])(pod([]), [], node), { admit: true });
});
