// Admission on the real agent (static pods; the same on every runtime): the kubelet's predicate and sysctl
// admit handlers refuse what the node must not run, with the kubelet's reason and message, and never start it.
// Upstream: test/e2e/common/node/pod_admission.go "PodOSRejection [NodeConformance] Kubelet should reject pod when
// the node OS doesn't match pod's OS"; test/e2e/common/node/sysctl.go "should not launch unsafe, but not explicitly
// enabled sysctls on the node".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SuiteContext } from './suite-context.ts';
import { ctr, fullName, removePod, waitPod, writePod } from './pods.ts';

export function defineAdmissionScenarios(ctx: SuiteContext): void {
  describe('admission', () => {
    const sandboxNames = async () => (await ctx.cri.listPodSandbox({})).items.map((s) => s.metadata?.name);

    it('spec.os.name windows: Failed / PodOSNotSupported, never started', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'os-win', { os: { name: 'windows' }, restartPolicy: 'Never', containers: [ctr('c', rt.image, 'echo ran')] });
      const p = await waitPod(a, 'os-win', 'Failed', (x) => x.status?.phase === 'Failed', 120_000);
      assert.equal(p.status?.reason, 'PodOSNotSupported');
      assert.equal(p.status?.message, "Pod was rejected: Failed to admit pod as the OS field doesn't match node OS");
      assert.ok(!(await sandboxNames()).includes(fullName(a, 'os-win')), 'no sandbox');
      removePod(a, 'os-win');
    });

    it('an unsafe sysctl not allowed: Failed / SysctlForbidden, never started', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'sysctl-unsafe', {
        restartPolicy: 'Never',
        securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'kernel.shmmax', value: '100000000' }] },
        containers: [ctr('c', rt.image, 'echo ran')],
      });
      const p = await waitPod(a, 'sysctl-unsafe', 'Failed', (x) => x.status?.phase === 'Failed', 120_000);
      assert.equal(p.status?.reason, 'SysctlForbidden');
      assert.equal(p.status?.message, 'Pod was rejected: forbidden sysctl: "kernel.shmmax" not allowlisted');
      assert.ok(!(await sandboxNames()).includes(fullName(a, 'sysctl-unsafe')), 'no sandbox');
      removePod(a, 'sysctl-unsafe');
    });
  });
}
