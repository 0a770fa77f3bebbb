import assert from 'node:assert/strict';
import { it } from 'node:test';
import { fromGoJson } from './floor-config.ts';

it('reads a CRI config as containerd\'s verbose status writes it into the object the CRI client sends', () => {
  // Go encoding/json of runtime.v1 ContainerConfig (snake_case proto names, []byte as base64), as `crictl inspect` shows.
  const go = {
    metadata: { name: 'main' },
    image: { image: 'busybox', user_specified_image: 'busybox' },
    envs: [{ key: 'PATH', value: Buffer.from('/bin:/usr/bin').toString('base64') }],
    labels: { 'io.kubernetes.container.name': 'main' },
    annotations: { 'io.kubernetes.container.restartCount': '0' },
    log_path: 'main/0.log',
    mounts: [{ container_path: '/etc/hosts', host_path: '/var/lib/kubelet/pods/u1/etc-hosts', selinux_relabel: true }],
    linux: { resources: { cpu_shares: 2, oom_score_adj: 1000 }, security_context: { namespace_options: { pid: 1 } } },
  };
  assert.deepEqual(fromGoJson(go), {
    metadata: { name: 'main' },
    image: { image: 'busybox', userSpecifiedImage: 'busybox' },
    envs: [{ key: 'PATH', value: Buffer.from('/bin:/usr/bin') }],
    labels: { 'io.kubernetes.container.name': 'main' },
    annotations: { 'io.kubernetes.container.restartCount': '0' },
    logPath: 'main/0.log',
    mounts: [{ containerPath: '/etc/hosts', hostPath: '/var/lib/kubelet/pods/u1/etc-hosts', selinuxRelabel: true }],
    linux: { resources: { cpuShares: 2, oomScoreAdj: 1000 }, securityContext: { namespaceOptions: { pid: 1 } } },
  });
});
