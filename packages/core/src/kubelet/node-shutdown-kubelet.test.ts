/**
 * The node shutdown manager inside the kubelet (fake runtime, static pods, real pod workers): the kill goes
 * through the pod workers (CRI StopContainer with min(pod's, group's) grace, regular pods before critical ones),
 * statuses Failed / Terminated, the node NotReady "node is shutting down", new pods refused (NodeShutdown).
 * Expected values: pkg/kubelet/nodeshutdown (v1.28) and the ReadyCondition setter's use of ShutdownStatus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { createKubelet } from './kubelet.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';
import { staticPodKubeletConfig } from './testing/kubelet-config.ts';
import { migrateConfig } from './node-shutdown-groups.ts';

const HOST = 'nodelet.local/host:latest';
const manifest = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec });
const sleeper = (name: string, extra: Record<string, unknown> = {}) => manifest(name, { terminationGracePeriodSeconds: 30, ...extra, containers: [{ name: `${name}-app`, image: HOST, command: ['sleep', '1000'] }] });

test('a shutdown kills regular then critical static pods through the pod workers; the node is NotReady and refuses pods', async () => {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false });
  const fs = new MemoryManifestFs('/manifests');
  fs.put('regular.json', sleeper('regular'));
  fs.put('short.json', sleeper('short', { terminationGracePeriodSeconds: 3 }));
  fs.put('critical.json', sleeper('critical', { priority: 2000000000 }));
  const kubelet = createKubelet({ cri, clock, logger: nullLogger, manifestFs: fs }, staticPodKubeletConfig({ shutdownGracePeriodByPodPriority: migrateConfig(30, 10) }));
  await kubelet.start();
  for (let s = 0; s < 5; s++) await clock.step(1_000);
  const phase = (n: string) => kubelet.getPod('default', `${n}-node1`)?.status?.phase;
  assert.deepEqual(['regular', 'short', 'critical'].map(phase), ['Running', 'Running', 'Running']);
  assert.equal(kubelet.node().runtimeMessage, undefined);

  const done = kubelet.nodeShutdown!.shutdownNow();
  for (let s = 0; s < 40; s++) await clock.step(1_000);
  await done;

  const stops = cri.calls
    .filter((c) => c.method === 'stopContainer')
    .map((c) => {
      const r = c.request as { containerId: string; timeout: number };
      return `${cri.containers.get(r.containerId)?.config.metadata?.name} ${r.timeout}`;
    });
  assert.deepEqual(stops, ['regular-app 20', 'short-app 3', 'critical-app 10']);
  for (const n of ['regular', 'short', 'critical']) {
    const st = kubelet.getPod('default', `${n}-node1`)?.status;
    assert.equal(st?.phase, 'Failed', n);
    assert.equal(st?.reason, 'Terminated', n);
    assert.equal(st?.message, 'Pod was terminated in response to imminent node shutdown.', n);
    assert.equal(st?.conditions?.find((c) => c.type === 'DisruptionTarget')?.reason, 'TerminationByKubelet', n);
  }
  assert.equal(kubelet.node().runtimeMessage, 'node is shutting down');

  fs.put('late.json', sleeper('late'));
  for (let s = 0; s < 3; s++) await clock.step(1_000);
  const late = kubelet.getPod('default', 'late-node1')?.status;
  assert.equal(late?.phase, 'Failed');
  assert.equal(late?.reason, 'NodeShutdown');
  assert.equal(late?.message, 'Pod was rejected: Pod was rejected as the node is shutting down.');
  await kubelet.stop();
});
