/**
 * What the kubelet lists (GET /pods, the console's pods.list) while a pod terminates. As the kubelet's
 * HandlePodUpdates / HandlePodRemoves: an API deletion (deletionTimestamp set, a config DELETE) keeps the pod in
 * the pod manager — listed with its deletionTimestamp and deletionGracePeriodSeconds, so `kubectl get pods`'s
 * Terminating rule applies — while its containers are stopped; it leaves the list only when its source removes
 * it (the API object deleted after the kubelet's final status: a REMOVE). The kubelet on the fake runtime.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { createKubelet } from './kubelet.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';
import { staticPodKubeletConfig } from './testing/kubelet-config.ts';

function apiPod(deletion?: { at: string; grace: number }): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web', namespace: 'default', uid: 'uid-web', labels: { app: 'web' },
      ...(deletion ? { deletionTimestamp: deletion.at as unknown as Date, deletionGracePeriodSeconds: deletion.grace } : {}),
    },
    spec: { nodeName: 'node1', containers: [{ name: 'app', image: 'nodelet.local/host:latest', command: ['sleep', '1000'] }] },
  };
}

test('an API deletion stays listed with its deletionTimestamp until the source removes the pod', async () => {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: true });
  const kubelet = createKubelet({ cri, clock, logger: nullLogger, manifestFs: new MemoryManifestFs('/manifests') }, staticPodKubeletConfig());
  const api = kubelet.podConfig.channel('api');
  const listed = () => kubelet.getPods().find((p) => p.metadata?.uid === 'uid-web');
  const step = async (n: number) => {
    for (let i = 0; i < n; i++) await clock.step(1_000);
  };
  await kubelet.start();
  api({ op: 'SET', source: 'api', pods: [apiPod()] });
  await step(5);
  assert.ok(listed()?.status?.containerStatuses?.[0]?.state?.running, 'running');

  const deletion = { at: '2026-11-26T06:00:30.000Z', grace: 30 };
  api({ op: 'SET', source: 'api', pods: [apiPod(deletion)] });
  await step(5);
  const terminating = listed();
  assert.ok(terminating, 'still listed while terminating');
  assert.equal(String(terminating.metadata?.deletionTimestamp), deletion.at);
  assert.equal(terminating.metadata?.deletionGracePeriodSeconds, 30);
  assert.deepEqual(cri.callsOf<{ timeout: number }>('stopContainer').map((c) => c.timeout), [30], 'killed with the deletion grace');
  assert.ok(listed()?.status?.containerStatuses?.[0]?.state?.terminated, 'its containers stopped, still listed');
  assert.equal(kubelet.getPod('default', 'web')?.metadata?.uid, 'uid-web');

  api({ op: 'SET', source: 'api', pods: [] });
  await step(2);
  assert.equal(listed(), undefined, 'gone once the source removed it');
  await kubelet.stop();
});
