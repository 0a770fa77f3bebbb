import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { ContainerConfig } from '../cri/types.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import type { ContainerMountsResult, MountPodResult, VolumeHost } from '../volume/types.ts';
import { FakeObjects } from '../podobjects/testing/fake-sources.ts';
import { KubeRuntimeManager } from './runtime-manager.ts';
import { makePod } from './testing/builders.ts';

class FakeVolumes implements VolumeHost {
  mount: MountPodResult = { ok: true };
  mounts: ContainerMountsResult = { ok: true, mounts: [{ containerPath: '/data', hostPath: '/r/pods/u/volumes/kubernetes.io~empty-dir/d', readonly: false, propagation: 'PROPAGATION_PRIVATE' }] };
  readonly calls: string[] = [];
  async mountPod(pod: V1Pod): Promise<MountPodResult> {
    this.calls.push(`mountPod ${pod.metadata?.name}`);
    return this.mount;
  }
  async containerMounts(_pod: V1Pod, c: { name: string }): Promise<ContainerMountsResult> {
    this.calls.push(`containerMounts ${c.name}`);
    return this.mounts;
  }
}

function setup() {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images: [] });
  const images = new KubeImageManager({ cri, clock, logger: nullLogger, events: () => {} });
  const volumes = new FakeVolumes();
  const objects = new FakeObjects();
  const rt = new KubeRuntimeManager(
    { cri, clock, logger: nullLogger, images, events: () => {}, volumes, objects },
    { podLogsDir: '/var/log/pods', nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  const sync = async (pod: V1Pod) => rt.syncPod(pod, await rt.getPodStatus(pod.metadata!.uid!, pod.metadata!.name!, 'default'));
  return { cri, volumes, objects, sync };
}

test('syncPod: volumes are set up before the sandbox; a mount failure stops the sync (ContainerCreating)', async () => {
  const { cri, volumes, sync } = setup();
  const pod = makePod({ name: 'web' });
  volumes.mount = { ok: false, reason: 'FailedMount', message: 'unable to attach or mount volumes: unmounted volumes=[cfg]' };
  const r = await sync(pod);
  assert.deepEqual(r, { steps: [], error: { reason: 'FailedMount', message: 'unable to attach or mount volumes: unmounted volumes=[cfg]' } });
  assert.deepEqual(cri.methods().filter((m) => /^(run|create|start)/.test(m)), []);
  volumes.mount = { ok: true };
  const ok = await sync(pod);
  assert.equal(ok.error, undefined);
  const cc = cri.callsOf<{ config: ContainerConfig }>('createContainer')[0]!.config;
  assert.deepEqual(cc.mounts?.map((m) => m.containerPath), ['/data']);
  assert.deepEqual(volumes.calls, ['mountPod web', 'mountPod web', `containerMounts ${pod.spec!.containers[0]!.name}`]);
});

test('syncPod: mount and env errors of a container are CreateContainerConfigError', async () => {
  const cases: Array<{ name: string; prep: (s: ReturnType<typeof setup>, pod: V1Pod) => void; message: string }> = [
    { name: 'undeclared volume', prep: (s) => (s.volumes.mounts = { ok: false, message: 'cannot find volume "x" to mount into container "app"' }), message: 'cannot find volume "x" to mount into container "app"' },
    {
      name: 'missing key',
      prep: (s, pod) => {
        s.objects.configMaps.set('default/cfg', { data: {} });
        pod.spec!.containers[0]!.env = [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'a' } } }];
      },
      message: "couldn't find key a in ConfigMap default/cfg",
    },
  ];
  for (const tc of cases) {
    const s = setup();
    const pod = makePod({ name: 'web' });
    tc.prep(s, pod);
    const r = await s.sync(pod);
    assert.deepEqual(r.error, { reason: 'CreateContainerConfigError', message: tc.message }, tc.name);
    assert.deepEqual(s.cri.callsOf('createContainer'), [], tc.name);
  }
});
