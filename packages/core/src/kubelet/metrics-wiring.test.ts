import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryEventBus } from '../events/bus.ts';
import type { PodStatus } from '../container/types.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { KubeletMetricsWiring } from './metrics-wiring.ts';

const ref = { namespace: 'default', name: 'p', uid: 'u1' };

function setup(statuses: Record<string, PodStatus> = {}) {
  const clock = new FakeClock(1_000_000);
  const bus = new InMemoryEventBus({ clock, logger: nullLogger });
  const w = new KubeletMetricsWiring({ clock, nodeName: 'n1', pods: () => [{ uid: 'u1', static: true }], status: (uid) => statuses[uid], active: () => true });
  w.attach(bus);
  return { clock, bus, w };
}

test('runtime operations: counter, histogram, errors, run_podsandbox', async () => {
  const { w } = setup();
  w.runtime.observeOperation('run_podsandbox', 0.2, false);
  w.runtime.observeOperation('list_containers', 0.01, true);
  const body = (await w.exposition()).body;
  assert.match(body, /kubelet_runtime_operations_total\{operation_type="run_podsandbox"\} 1/);
  assert.match(body, /kubelet_runtime_operations_errors_total\{operation_type="list_containers"\} 1/);
  assert.match(body, /kubelet_run_podsandbox_duration_seconds_count\{runtime_handler=""\} 1/);
  w.runtime.observeOperation('run_podsandbox', 0.3, true, 'userns');
  const after = (await w.exposition()).body;
  assert.match(after, /kubelet_run_podsandbox_duration_seconds_count\{runtime_handler="userns"\} 1/);
  assert.match(after, /kubelet_run_podsandbox_errors_total\{runtime_handler="userns"\} 1/);
  assert.match(body, /kubelet_node_name\{node="n1"\} 1/);
});

test('pod start duration: first seen (ADD) to the first Running status, once', async () => {
  const { bus, clock, w } = setup();
  bus.publish({ type: 'podConfig', time: '', pod: ref, op: 'ADD', source: 'file' });
  await clock.step(2500);
  const running = { type: 'podStatus' as const, time: '', pod: ref, phase: 'Running', ready: true, containers: [], status: {} };
  bus.publish(running);
  bus.publish(running);
  const body = (await w.exposition()).body;
  assert.match(body, /kubelet_pod_start_duration_seconds_count 1\n/);
  assert.match(body, /kubelet_pod_start_duration_seconds_sum 2.5\n/);
  assert.match(body, /kubelet_started_pods_total 1\n/);
  w.detach();
});

test('gauges are recomputed at scrape time from the status cache', async () => {
  const st: PodStatus = {
    uid: 'u1', name: 'p', namespace: 'default', ips: [],
    sandboxStatuses: [{ id: 's', state: 'ready', createdAt: 0, attempt: 0, ip: '', additionalIps: [] }],
    containerStatuses: [{ id: { type: 't', id: 'c' }, name: 'c', state: 'running', createdAt: 0, startedAt: 0, finishedAt: 0, exitCode: 0, reason: '', message: '', image: '', imageRef: '', imageId: '', restartCount: 0, hash: '', logPath: '' }],
  };
  const { w } = setup({ u1: st });
  const body = (await w.exposition()).body;
  assert.match(body, /kubelet_running_pods 1\n/);
  assert.match(body, /kubelet_running_containers\{container_state="running"\} 1\n/);
  assert.match(body, /kubelet_desired_pods\{static="true"\} 1\n/);
  assert.match(body, /kubelet_active_pods\{static="true"\} 1\n/);
});

test('kubelet_managed_ephemeral_containers: the ephemeral containers in the pods on the node (basic_manager.go updateMetrics)', async () => {
  const pods = [{ uid: 'u1', static: false, ephemeralContainers: 2 }, { uid: 'u2', static: false, ephemeralContainers: 0 }, { uid: 'u3', static: true }];
  const w = new KubeletMetricsWiring({ clock: new FakeClock(0), nodeName: 'n1', pods: () => pods, status: () => undefined, active: () => true });
  assert.match((await w.exposition()).body, /^kubelet_managed_ephemeral_containers 2$/m);
  pods[1]!.ephemeralContainers = 1;
  assert.match((await w.exposition()).body, /^kubelet_managed_ephemeral_containers 3$/m);
});
