/**
 * Runtime state and stats call the runtime through the instrumented CRI client, so their calls count in
 * kubelet_runtime_operations_total / _duration_seconds like every other CRI call (the kubelet wraps its one
 * runtime service in instrumentedRuntimeService).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import type { PodStatus } from '../container/types.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { CriClient } from '../cri/types.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import { KubeletEventRecorder } from '../events/recorder.ts';
import type { RuntimeMetrics } from '../kuberuntime/types.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { createKubelet } from './kubelet.ts';
import { NodeStats } from './stats-wiring.ts';

test('runtime state: its CRI Version/Status polls are timed into the runtime metrics', async () => {
  const clock = new FakeClock();
  const ops: string[] = [];
  const metrics: RuntimeMetrics = { observeOperation: (op) => void ops.push(op) };
  const kubelet = createKubelet(
    { cri: new FakeRuntime({ clock }), clock, logger: nullLogger, metrics },
    {
      nodeName: 'node1', fileCheckFrequencyMs: 2_000, httpCheckFrequencyMs: 20_000, podLogsDir: '/var/log/pods', rootDir: '/var/lib/nodelet',
      maxPods: 110, plegRelistPeriodMs: 1_000, plegRelistThresholdMs: 180_000, crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 },
      runtimeEndpoint: 'fake:///runtime', kubeletVersion: 'v1.34.0-nodelet', runtimeStatusPeriodMs: 5_000,
    },
  );
  await kubelet.start();
  try {
    await clock.step(0);
    const before = ops.filter((o) => o === 'status').length;
    assert.ok(before >= 1, `runtime state's first Status is counted (ops: ${ops.join(',')})`);
    await clock.step(5_000);
    assert.ok(ops.filter((o) => o === 'status').length > before, 'each periodic Status is counted');
  } finally {
    await kubelet.stop();
  }
});

test('stats: the CRI fallback sampler (cgroups not readable) counts its ContainerStats / ListContainerStats calls', async () => {
  const fx = makeFixture('v1');
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock, logger: nullLogger });
  const cri = {
    containerStats: async () => ({ stats: null }),
    listContainerStats: async () => ({ stats: [] }),
  } as unknown as CriClient;
  const pod: V1Pod = { metadata: { uid: 'u1', name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app' }] } };
  const status: PodStatus = {
    uid: 'u1', name: 'web', namespace: 'default', ips: [],
    sandboxStatuses: [{ id: 's', state: 'ready', createdAt: 1, attempt: 0, ip: '', additionalIps: [] }],
    containerStatuses: [{ id: { type: 't', id: 'c1' }, name: 'app', state: 'running', createdAt: 2, startedAt: 3, finishedAt: 0, exitCode: 0, reason: '', message: '', image: 'img', imageRef: '', imageId: '', restartCount: 0, hash: '', logPath: '' }],
  };
  const ns = new NodeStats(
    {
      fs: fx.fs, du: () => Promise.resolve({ bytes: 0, inodes: 0 }), clock, logger: nullLogger, cri,
      recorder: new KubeletEventRecorder({ bus, clock, logger: nullLogger }), bus,
      pods: () => [pod], status: () => status, active: () => true,
    },
    { nodeName: 'n1', rootDir: '/', maxPods: 110, podLogsDir: '/var/log/pods', nodeStartTimeMs: clock.now(), oomWatcher: false },
  );
  try {
    await ns.start();
    await clock.step(10);
    await ns.housekeeper()?.idle();
    const body = (await ns.metrics('kubelet')).body;
    assert.match(body, /kubelet_runtime_operations_total\{operation_type="container_stats"\} [1-9]/);
    assert.match(body, /kubelet_runtime_operations_total\{operation_type="list_container_stats"\} [1-9]/);
    assert.match(body, /kubelet_runtime_operations_duration_seconds_count\{operation_type="container_stats"\} [1-9]/);
  } finally {
    ns.stop();
    fx.cleanup();
  }
});
