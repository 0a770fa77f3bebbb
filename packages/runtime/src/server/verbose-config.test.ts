import assert from 'node:assert/strict';
import { it } from 'node:test';
import { goJson } from './verbose-config.ts';

it('a config as containerd\'s verbose status shows it: proto snake_case names, map keys as written, base64 bytes, zero values left out', () => {
  const config = {
    metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 0 },
    logDirectory: '/var/log/pods/default_web_u1',
    labels: { 'io.kubernetes.pod.name': 'web', appName: 'x' },
    dnsConfig: { servers: ['10.0.0.10'], searches: [], options: [] },
    linux: { cgroupParent: '/kubepods/besteffort/podu1', sysctls: { 'net.core.somaxconn': '1024' }, securityContext: { namespaceOptions: { network: 'POD' }, privileged: false } },
    envs: [{ key: 'A', value: Buffer.from('b c') }],
  };
  // The shape of `crictl inspectp` / `crictl inspect` output's info.config against containerd (Go encoding/json of
  // the CRI message: json tags are the proto names, omitempty; []byte base64).
  assert.deepEqual(goJson(config), {
    metadata: { name: 'web', uid: 'u1', namespace: 'default' },
    log_directory: '/var/log/pods/default_web_u1',
    labels: { 'io.kubernetes.pod.name': 'web', appName: 'x' },
    dns_config: { servers: ['10.0.0.10'] },
    linux: { cgroup_parent: '/kubepods/besteffort/podu1', sysctls: { 'net.core.somaxconn': '1024' }, security_context: { namespace_options: { network: 'POD' } } },
    envs: [{ key: 'A', value: 'YiBj' }],
  });
});
