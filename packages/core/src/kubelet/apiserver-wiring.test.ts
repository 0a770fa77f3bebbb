/**
 * The API-server wiring asks the pod workers about a pod's lifecycle: a static pod gets its mirror pod only while
 * its worker syncs it (the kubelet creates mirrors in SyncPod, which no longer runs once termination was
 * requested), never once its termination was requested or it terminated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import { KubeletEventRecorder } from '../events/recorder.ts';
import { MergedPodConfig } from '../config/pod-config.ts';
import { BasicPodManager } from '../pod/basic-pod-manager.ts';
import { BasicStatusManager } from '../status/status-manager.ts';
import { FakeApiClient, ok } from '../apiclient/testing/fake-client.ts';
import { FakePodState } from '../testing/fake-pod-state.ts';
import { ApiServerWiring } from './apiserver-wiring.ts';
import type { NodeSummary } from './types.ts';

const staticPod = (name: string): V1Pod => ({
  metadata: { name: `${name}-node1`, namespace: 'default', uid: name, annotations: { 'kubernetes.io/config.source': 'file' } },
  spec: { nodeName: 'node1', containers: [{ name: 'c', image: 'x' }] },
});

test('mirror pods: created for static pods their workers sync, not for ones being terminated or terminated', async () => {
  const clock = new FakeClock();
  const bus = new InMemoryEventBus({ clock, logger: nullLogger });
  const recorder = new KubeletEventRecorder({ bus, clock, logger: nullLogger });
  const podManager = new BasicPodManager();
  const statusManager = new BasicStatusManager({ clock, bus, logger: nullLogger });
  const client = new FakeApiClient((req) => (req.method === 'POST' ? ok(req.body, 201) : ok({})));
  const podState = new FakePodState();
  const wiring = new ApiServerWiring(
    {
      client, clock, logger: nullLogger, bus, recorder: () => recorder, podConfig: new MergedPodConfig({ clock, logger: nullLogger, bus }),
      podManager, statusManager: () => statusManager, summary: () => ({}) as NodeSummary, listImages: async () => [], podState: () => podState,
      nodeName: 'node1', rootDir: '/r', maxPods: 110, kubeletVersion: 'v0',
    },
    { registerNode: true, kubeletPort: 10250 },
  );
  for (const name of ['syncing', 'terminating', 'terminated']) podManager.addPod(staticPod(name));
  podState.terminating.add('terminating');
  podState.terminated.add('terminated');
  wiring.nodeStatus.registered = true;
  await wiring.syncMirrors();
  const created = client.calls.filter((r) => r.method === 'POST').map((r) => (r.body as V1Pod).metadata?.name);
  assert.deepEqual(created, ['syncing-node1']);
  assert.ok(podState.asked.includes('isPodTerminationRequested terminating'), 'the pod workers were asked');
});
