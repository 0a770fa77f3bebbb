import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { RecordingLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { PodSandboxConfig } from '../cri/types.ts';
import { createKubelet } from './kubelet.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';

const pod = (name: string, nodeSelector?: Record<string, string>, spec: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { ...(nodeSelector ? { nodeSelector } : {}), ...spec, containers: [{ name: 'c', image: 'nodelet.local/host:latest' }] },
  });
const unsafeSysctls = { securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'kernel.shmmax', value: '100000000' }] } };

test('admission refuses what the node cannot run, with the kubelet reason', async () => {
  const cases = [
    // Static pods are critical: resource shortfalls admit them (as the kubelet); selectors still refuse.
    { name: 'node selector not matched', maxPods: 110, files: { 'a.json': pod('a'), 'b.json': pod('b', { disktype: 'ssd' }) }, rejected: 'b-node1', reason: 'NodeAffinity' },
    { name: 'wrong OS', maxPods: 110, files: { 'a.json': pod('a'), 'w.json': pod('w', { 'kubernetes.io/os': 'windows' }) }, rejected: 'w-node1', reason: 'NodeAffinity' },
    // Upstream: pod_admission.go "PodOSRejection ... should reject pod when the node OS doesn't match pod's OS".
    { name: 'spec.os.name windows', maxPods: 110, files: { 'a.json': pod('a'), 'w.json': pod('w', undefined, { os: { name: 'windows' } }) }, rejected: 'w-node1', reason: 'PodOSNotSupported' },
    // Upstream: sysctl.go "should not launch unsafe, but not explicitly enabled sysctls on the node".
    { name: 'unsafe sysctl not allowed', maxPods: 110, files: { 'a.json': pod('a'), 's.json': pod('s', undefined, unsafeSysctls) }, rejected: 's-node1', reason: 'SysctlForbidden' },
  ];
  for (const tc of cases) {
    const clock = new FakeClock();
    const cri = new FakeRuntime({ clock });
    const fs = new MemoryManifestFs('/m');
    for (const [f, c] of Object.entries(tc.files)) fs.put(f, c);
    const log = new RecordingLogger();
    const k = createKubelet(
      { cri, clock, logger: log.logger, manifestFs: fs },
      {
        nodeName: 'node1', podManifestPath: '/m', fileCheckFrequencyMs: 20_000, httpCheckFrequencyMs: 20_000,
        podLogsDir: '/var/log/pods', rootDir: '/r', maxPods: tc.maxPods, plegRelistPeriodMs: 1_000, plegRelistThresholdMs: 180_000,
        crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 }, runtimeEndpoint: 'fake://', kubeletVersion: 'v0',
        allocatable: { cpuMilli: 2_000, memoryBytes: 8 * 2 ** 30 },
      },
    );
    await k.start();
    for (let i = 0; i < 3; i++) await clock.step(1_000);
    const rejected = k.getPod('default', tc.rejected);
    assert.equal(rejected?.status?.phase, 'Failed', tc.name);
    assert.equal(rejected?.status?.reason, tc.reason, tc.name);
    assert.match(rejected?.status?.message ?? '', /^Pod was rejected: /, tc.name);
    const sandboxes = cri.callsOf<{ config: PodSandboxConfig }>('runPodSandbox').map((r) => r.config.metadata?.name);
    assert.deepEqual(sandboxes, ['a-node1'], tc.name);
    const ev = k.events.recent({ types: ['k8sEvent'] }, 500).find((e) => e.type === 'k8sEvent' && e.reason === tc.reason);
    assert.equal(ev?.type === 'k8sEvent' && ev.eventType, 'Warning', tc.name);
    const line = log.records.find((r) => r.msg === 'Pod admission denied');
    assert.deepEqual([line?.pod, line?.reason], [`default/${tc.rejected}`, tc.reason], tc.name);
    // The verdicts and the sync steps as `decision` events (the flight recorder keeps them).
    const decisions = k.events.recent({ types: ['decision'] }, 500).flatMap((e) => (e.type === 'decision' ? [e] : []));
    const verdicts = decisions.filter((d) => d.decision !== 'sync').map((d) => `${d.pod.name} ${d.decision} ${d.reason ?? ''}`.trim());
    assert.deepEqual(verdicts.sort(), ['a-node1 admit', `${tc.rejected} refuse ${tc.reason}`].sort(), tc.name);
    const firstSync = decisions.find((d) => d.decision === 'sync');
    assert.equal(firstSync?.pod.name, 'a-node1', tc.name);
    assert.deepEqual(firstSync?.steps?.map((st) => st.action), ['CreatePodSandbox', 'StartContainer'], tc.name);
    assert.equal(firstSync?.steps?.[1]?.target, 'c', tc.name);
    await k.stop();
  }
});

test('allowedUnsafeSysctls admits the pod the default allowlist refuses', async () => {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock });
  const fs = new MemoryManifestFs('/m');
  fs.put('s.json', pod('s', undefined, unsafeSysctls));
  const k = createKubelet(
    { cri, clock, logger: new RecordingLogger().logger, manifestFs: fs },
    {
      nodeName: 'node1', podManifestPath: '/m', fileCheckFrequencyMs: 20_000, httpCheckFrequencyMs: 20_000,
      podLogsDir: '/var/log/pods', rootDir: '/r', maxPods: 110, plegRelistPeriodMs: 1_000, plegRelistThresholdMs: 180_000,
      crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 }, runtimeEndpoint: 'fake://', kubeletVersion: 'v0',
      allowedUnsafeSysctls: ['kernel.shm*'],
    },
  );
  await k.start();
  for (let i = 0; i < 3; i++) await clock.step(1_000);
  const sandboxes = cri.callsOf<{ config: PodSandboxConfig }>('runPodSandbox').map((r) => r.config);
  assert.deepEqual(sandboxes.map((c) => c.metadata?.name), ['s-node1']);
  await k.stop();
});
