import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import type { PodStatus } from '../container/types.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import { KubeletEventRecorder } from '../events/recorder.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { NodeStats } from './stats-wiring.ts';

const pod: V1Pod = { metadata: { uid: 'u1', name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app', resources: { requests: { cpu: '250m' } } }] } };
const status: PodStatus = {
  uid: 'u1', name: 'web', namespace: 'default', ips: [],
  sandboxStatuses: [{ id: 's', state: 'ready', createdAt: 1, attempt: 0, ip: '', additionalIps: [] }],
  containerStatuses: [{ id: { type: 't', id: 'c1' }, name: 'app', state: 'running', createdAt: 2, startedAt: 3, finishedAt: 0, exitCode: 0, reason: '', message: '', image: 'img', imageRef: '', imageId: '', restartCount: 0, hash: '', logPath: '' }],
};

test('NodeStats: QoS tree, tracked pod and container, summary, metrics, cgroup status', async () => {
  const fx = makeFixture('v1');
  fx.write('/sys/fs/cgroup/memory/kubepods/burstable/podu1/c1/memory.usage_in_bytes', '4096\n');
  fx.write('/sys/fs/cgroup/memory/kubepods/burstable/podu1/c1/memory.stat', 'total_inactive_file 1024\ntotal_rss 2048\n');
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock, logger: nullLogger });
  const ns = new NodeStats(
    {
      fs: fx.fs, du: () => Promise.resolve({ bytes: 0, inodes: 0 }), clock, logger: nullLogger,
      recorder: new KubeletEventRecorder({ bus, clock, logger: nullLogger }), bus,
      pods: () => [pod], status: (uid) => (uid === 'u1' ? status : undefined), active: () => true,
    },
    { nodeName: 'n1', rootDir: '/', maxPods: 110, podLogsDir: '/var/log/pods', nodeStartTimeMs: clock.now(), oomWatcher: false },
  );
  try {
    await ns.start();
    await clock.step(10);
    await ns.housekeeper()?.idle();
    assert.equal(ns.cgroups().qosTree, true);
    assert.deepEqual(ns.containers().map((c) => c.key), ['/', '/kubepods', '/kubepods/burstable', '/kubepods/besteffort', '/kubepods/burstable/podu1', '/kubepods/burstable/podu1/c1']);
    const s = await ns.summary({ onlyCpuAndMemory: true });
    assert.equal(s.pods[0]?.podRef.name, 'web');
    assert.equal(s.pods[0]?.containers[0]?.memory?.workingSetBytes, 3072);
    assert.match((await ns.metrics('kubelet')).body, /kubelet_node_name\{node="n1"\} 1/);
    assert.match((await ns.metrics('cadvisor')).body, /container_memory_working_set_bytes\{id="\/kubepods\/burstable\/podu1\/c1",name="c1",image="img",pod="web",namespace="default",container="app"\} 3072/);
    assert.equal(ns.history('/kubepods/burstable/podu1/c1').length, 1);
  } finally {
    ns.stop();
    fx.cleanup();
  }
});

test('NodeStats: kubelet_desired_pods/kubelet_active_pods count only file and HTTP pods as static (kubetypes.IsStaticPod)', async () => {
  const fx = makeFixture('v1');
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock, logger: nullLogger });
  const withSource = (uid: string, source: string): V1Pod => ({ metadata: { uid, name: uid, namespace: 'default', annotations: { 'kubernetes.io/config.source': source } } });
  const pods = [withSource('a1', 'api'), withSource('a2', 'api'), withSource('f1', 'file'), withSource('h1', 'http')];
  const ns = new NodeStats(
    {
      fs: fx.fs, du: () => Promise.resolve({ bytes: 0, inodes: 0 }), clock, logger: nullLogger,
      recorder: new KubeletEventRecorder({ bus, clock, logger: nullLogger }), bus,
      pods: () => pods, status: () => undefined, active: (uid) => uid !== 'a2',
    },
    { nodeName: 'n1', rootDir: '/', maxPods: 110, podLogsDir: '/var/log/pods', nodeStartTimeMs: clock.now(), oomWatcher: false },
  );
  try {
    const body = (await ns.metrics('kubelet')).body;
    assert.match(body, /kubelet_desired_pods\{static="true"\} 2\n/);
    assert.match(body, /kubelet_desired_pods\{static="false"\} 2\n/);
    assert.match(body, /kubelet_active_pods\{static="true"\} 2\n/);
    assert.match(body, /kubelet_active_pods\{static="false"\} 1\n/);
  } finally {
    ns.stop();
    fx.cleanup();
  }
});

test('NodeStats: the tracked containers follow a new runtime status, a new pod and a pod gone (the mapping is kept only while its inputs are the same objects)', async () => {
  const fx = makeFixture('v1');
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock, logger: nullLogger });
  let pods: V1Pod[] = [pod];
  let st: PodStatus = status;
  const other: V1Pod = { metadata: { uid: 'u2', name: 'db', namespace: 'default' }, spec: { containers: [{ name: 'db' }] } };
  const otherStatus: PodStatus = { ...status, uid: 'u2', name: 'db', containerStatuses: [{ ...status.containerStatuses[0]!, id: { type: 't', id: 'c9' }, name: 'db' }] };
  const ns = new NodeStats(
    {
      fs: fx.fs, du: () => Promise.resolve({ bytes: 0, inodes: 0 }), clock, logger: nullLogger,
      recorder: new KubeletEventRecorder({ bus, clock, logger: nullLogger }), bus,
      pods: () => pods, status: (uid) => (uid === 'u1' ? st : uid === 'u2' ? otherStatus : undefined), active: () => true,
    },
    { nodeName: 'n1', rootDir: '/', maxPods: 110, podLogsDir: '/var/log/pods', nodeStartTimeMs: clock.now(), oomWatcher: false },
  );
  const keys = () => ns.containers().map((c) => c.key).filter((k) => k.includes('/pod'));
  try {
    await ns.start();
    assert.deepEqual(keys(), ['/kubepods/burstable/podu1', '/kubepods/burstable/podu1/c1']);
    // The container restarted: a new status object with a new container id.
    st = { ...status, containerStatuses: [{ ...status.containerStatuses[0]!, id: { type: 't', id: 'c2' } }] };
    assert.deepEqual(keys(), ['/kubepods/burstable/podu1', '/kubepods/burstable/podu1/c2']);
    pods = [pod, other];
    assert.deepEqual(keys(), ['/kubepods/burstable/podu1', '/kubepods/burstable/podu1/c2', '/kubepods/besteffort/podu2', '/kubepods/besteffort/podu2/c9']);
    pods = [other];
    assert.deepEqual(keys(), ['/kubepods/besteffort/podu2', '/kubepods/besteffort/podu2/c9']);
  } finally {
    ns.stop();
    fx.cleanup();
  }
});
