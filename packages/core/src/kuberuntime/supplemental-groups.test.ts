/**
 * The CRI supplementalGroups of a pod with fsGroup: kuberuntime's determineEffectiveSecurityContext
 * (security_context.go) and generatePodSandboxLinuxConfig put `fsGroup` first, then `supplementalGroups`.
 * Needed by the upstream specs test/e2e/common/storage/secrets_volume.go and projected_secret.go "should be
 * consumable from pods in volume as non-root with defaultMode and fsGroup set" (uid 1000 reads a 0440 file of
 * group 1001 only through the supplementary group).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { generateContainerConfig } from './container-config.ts';
import { generatePodSandboxConfig } from './sandbox-config.ts';
import { podSupplementalGroups } from './supplemental-groups.ts';

const pod = (securityContext?: NonNullable<V1Pod['spec']>['securityContext']): V1Pod => ({
  metadata: { name: 'p', namespace: 'default', uid: 'u1' },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }], ...(securityContext ? { securityContext } : {}) },
});

test('podSupplementalGroups: fsGroup first, then supplementalGroups; none → undefined', () => {
  assert.equal(podSupplementalGroups(undefined), undefined);
  assert.equal(podSupplementalGroups({ runAsUser: 1000 }), undefined);
  assert.deepEqual(podSupplementalGroups({ fsGroup: 1001 }), [1001]);
  assert.deepEqual(podSupplementalGroups({ fsGroup: 0 }), [0]);
  assert.deepEqual(podSupplementalGroups({ fsGroup: 1001, supplementalGroups: [5, 6] }), [1001, 5, 6]);
  assert.deepEqual(podSupplementalGroups({ supplementalGroups: [5] }), [5]);
});

test('container and sandbox CRI configs carry fsGroup among the supplemental groups', async () => {
  const p = pod({ runAsUser: 1000, fsGroup: 1001, supplementalGroups: [2000] });
  const r = await generateContainerConfig(p, p.spec!.containers[0]!, 0, 'busybox', { podIp: '', podIps: [], nodeName: 'n1' });
  assert.ok(r.ok);
  const sc = (r as { ok: true; config: { linux?: { securityContext?: { supplementalGroups?: number[]; runAsUser?: { value: number } } } } }).config.linux?.securityContext;
  assert.deepEqual(sc?.supplementalGroups, [1001, 2000]);
  assert.deepEqual(sc?.runAsUser, { value: 1000 });
  const sb = generatePodSandboxConfig(p, 0, { podLogsDir: '/var/log/pods', nodeName: 'n1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } });
  assert.deepEqual(sb.linux?.securityContext?.supplementalGroups, [1001, 2000]);
});
