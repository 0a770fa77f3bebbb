/**
 * The container GC's policy, case by case as the kubelet's own tests (pkg/kubelet/kuberuntime/kuberuntime_gc_test.go:
 * TestContainerGC, TestSandboxGC, TestPodLogDirectoryGC, TestUnknownStateContainerGC); the expected survivors are
 * theirs. There `removed` pods are those named "deleted", `terminated` every pod not named "running"
 * (containers) or marked terminating (sandboxes); evictTerminatingPods is deleteAllUnusedContainers here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerGcPolicy } from './container-gc.ts';
import { gcContainer as c, gcSandbox as s, gcWorld, HOUR_MS, type ContainerTemplate, type SandboxTemplate } from './testing/gc-fixture.ts';

const E = 'EXITED' as const;
const R = 'RUNNING' as const;

test('TestContainerGC: the kubelet cases, evictable = not running and older than MinAge', async () => {
  // The kubelet's defaultGCPolicy: MinAge 1 h, MaxPerPodContainer 2, MaxContainers 6.
  const defaults: ContainerGcPolicy = { minAgeMs: HOUR_MS, maxPerPodContainer: 2, maxContainers: 6 };
  const cases: Array<{ name: string; containers: ContainerTemplate[]; policy?: ContainerGcPolicy; remain: number[]; evictTerminating?: boolean; allSourcesReady?: boolean }> = [
    { name: 'all containers should be removed when max container limit is 0', containers: [c('foo', 'bar', 0, 0, E)], policy: { minAgeMs: 60_000, maxPerPodContainer: 1, maxContainers: 0 }, remain: [] },
    {
      name: 'max containers should be complied when no max per pod container limit is set',
      containers: [c('foo', 'bar', 4, 4, E), c('foo', 'bar', 3, 3, E), c('foo', 'bar', 2, 2, E), c('foo', 'bar', 1, 1, E), c('foo', 'bar', 0, 0, E)],
      policy: { minAgeMs: 60_000, maxPerPodContainer: -1, maxContainers: 4 },
      remain: [0, 1, 2, 3],
    },
    {
      name: 'no containers should be removed if both max container and per pod container limits are not set',
      containers: [c('foo', 'bar', 2, 2, E), c('foo', 'bar', 1, 1, E), c('foo', 'bar', 0, 0, E)],
      policy: { minAgeMs: 60_000, maxPerPodContainer: -1, maxContainers: -1 },
      remain: [0, 1, 2],
    },
    { name: 'recently started containers should not be removed', containers: [c('foo', 'bar', 2, 'now', E), c('foo', 'bar', 1, 'now', E), c('foo', 'bar', 0, 'now', E)], remain: [0, 1, 2] },
    { name: 'oldest containers should be removed when per pod container limit exceeded', containers: [c('foo', 'bar', 2, 2, E), c('foo', 'bar', 1, 1, E), c('foo', 'bar', 0, 0, E)], remain: [0, 1] },
    { name: 'running containers should not be removed', containers: [c('foo', 'bar', 2, 2, E), c('foo', 'bar', 1, 1, E), c('foo', 'bar', 0, 0, R)], remain: [0, 1, 2] },
    { name: 'no containers should be removed when limits are not exceeded', containers: [c('foo', 'bar', 1, 1, E), c('foo', 'bar', 0, 0, E)], remain: [0, 1] },
    {
      name: 'max container count should apply per (UID, container) pair',
      containers: ['foo/bar', 'foo1/baz', 'foo2/bar'].flatMap((u) => [2, 1, 0].map((n) => c(u.split('/')[0] ?? '', u.split('/')[1] ?? '', n, n, E))),
      remain: [0, 1, 3, 4, 6, 7],
    },
    {
      name: 'max limit should apply and try to keep from every pod',
      containers: ['', '1', '2', '3', '4'].flatMap((i) => [c(`foo${i}`, `bar${i}`, 1, 1, E), c(`foo${i}`, `bar${i}`, 0, 0, E)]),
      remain: [0, 2, 4, 6, 8],
    },
    {
      name: 'oldest pods should be removed if limit exceeded',
      containers: [
        c('foo', 'bar', 2, 2, E), c('foo', 'bar', 1, 1, E), c('foo1', 'bar1', 2, 2, E), c('foo1', 'bar1', 1, 1, E), c('foo2', 'bar2', 1, 1, E),
        c('foo3', 'bar3', 0, 0, E), c('foo4', 'bar4', 1, 1, E), c('foo5', 'bar5', 0, 0, E), c('foo6', 'bar6', 2, 2, E), c('foo7', 'bar7', 1, 1, E),
      ],
      remain: [0, 2, 4, 6, 8, 9],
    },
    {
      name: 'all non-running containers should be removed when evictTerminatingPods is set',
      containers: [c('foo', 'bar', 2, 2, E), c('foo', 'bar', 1, 1, E), c('foo1', 'bar1', 2, 2, E), c('foo1', 'bar1', 1, 1, E), c('running', 'bar2', 1, 1, E), c('foo3', 'bar3', 0, 0, R)],
      evictTerminating: true,
      remain: [4, 5],
    },
    {
      name: 'containers for deleted pods should be removed (deleted pods still respect MinAge)',
      containers: [c('foo', 'bar', 1, 1, E), c('foo', 'bar', 0, 0, E), c('deleted', 'bar1', 2, 'now', E), c('deleted', 'bar1', 1, 1, E), c('deleted', 'bar1', 0, 0, E)],
      remain: [0, 1, 2],
    },
    { name: 'containers for deleted pods may not be removed if allSourcesReady is set false', containers: [c('deleted', 'bar1', 0, 0, E)], evictTerminating: true, allSourcesReady: false, remain: [0] },
  ];
  for (const t of cases) {
    const w = await gcWorld(t.containers, [], { policy: t.policy ?? defaults, allSourcesReady: t.allSourcesReady ?? true });
    for (const x of t.containers) {
      if (x.pod === 'deleted') w.podState.removed.add(x.pod);
      if (x.pod !== 'running') w.podState.terminated.add(x.pod);
    }
    const r = t.evictTerminating ? await w.gc.deleteAllUnusedContainers() : await w.gc.garbageCollect();
    assert.deepEqual(w.remainingContainers(), t.remain, t.name);
    assert.deepEqual(r.errors, [], t.name);
    assert.equal(w.cri.callsOf('stopContainer').length, 0, `${t.name}: the GC never stops a container`);
  }
});

test('TestSandboxGC: not ready, no container, and not the newest of a pod still in use', async () => {
  const cases: Array<{ name: string; sandboxes: SandboxTemplate[]; containers?: ContainerTemplate[]; remain: number[]; removed?: string[]; terminated?: string[]; evictTerminating?: boolean }> = [
    { name: 'notready sandboxes without containers for deleted pods should be garbage collected', sandboxes: [s('deleted', 0, 'NOTREADY', 0)], removed: ['deleted'], remain: [] },
    { name: 'ready sandboxes without containers for deleted pods should not be garbage collected', sandboxes: [s('deleted', 0, 'READY', 0)], removed: ['deleted'], remain: [0] },
    { name: 'sandboxes for existing pods should not be garbage collected', sandboxes: [s('foo1', 0, 'READY', 0), s('foo2', 0, 'NOTREADY', 0)], remain: [0, 1] },
    {
      name: 'older exited sandboxes without containers for existing pods should be garbage collected if there are more than one exited sandboxes',
      sandboxes: [s('foo1', 1, 'NOTREADY', 1), s('foo1', 0, 'NOTREADY', 0)],
      remain: [0],
    },
    {
      name: 'older exited sandboxes with containers for existing pods should not be garbage collected even if there are more than one exited sandboxes',
      sandboxes: [s('foo1', 1, 'NOTREADY', 1), s('foo1', 0, 'NOTREADY', 0)],
      containers: [{ ...c('foo1', 'bar1', 0, 0, E), sandboxAttempt: 0 }],
      remain: [0, 1],
    },
    {
      name: 'non-running sandboxes for existing pods should be garbage collected if evictTerminatingPods is set',
      sandboxes: [s('foo1', 0, 'READY', 0), s('foo2', 0, 'NOTREADY', 0)],
      terminated: ['foo1', 'foo2'],
      evictTerminating: true,
      remain: [0],
    },
    { name: 'sandbox with containers should not be garbage collected', sandboxes: [s('foo1', 0, 'NOTREADY', 0)], containers: [c('foo1', 'bar1', 0, 0, E)], remain: [0] },
    {
      name: 'multiple sandboxes should be handled properly',
      sandboxes: [s('foo1', 1, 'READY', 1), s('foo1', 0, 'NOTREADY', 0), s('foo2', 1, 'NOTREADY', 1), s('foo2', 0, 'NOTREADY', 0), s('deleted', 0, 'NOTREADY', 0)],
      containers: [{ ...c('foo2', 'bar3', 0, 0, E), sandboxAttempt: 1 }],
      removed: ['deleted'],
      terminated: ['deleted'],
      remain: [0, 2],
    },
  ];
  for (const t of cases) {
    // Limits off, so that only sandboxes are in question (the kubelet's test calls evictSandboxes alone).
    const w = await gcWorld(t.containers ?? [], t.sandboxes, { policy: { minAgeMs: HOUR_MS, maxPerPodContainer: -1, maxContainers: -1 } });
    for (const p of t.removed ?? []) w.podState.removed.add(p);
    for (const p of t.terminated ?? []) w.podState.terminated.add(p);
    const r = t.evictTerminating ? await w.gc.deleteAllUnusedContainers() : await w.gc.garbageCollect();
    assert.deepEqual(w.remainingSandboxes(), t.remain, t.name);
    assert.deepEqual(r.errors, [], t.name);
    // As the kubelet's removeSandbox: StopPodSandbox (a no-op here) before RemovePodSandbox, for removed ones only.
    const removedIds = w.cri.callsOf<{ podSandboxId: string }>('removePodSandbox').map((x) => x.podSandboxId);
    assert.deepEqual(w.cri.callsOf<{ podSandboxId: string }>('stopPodSandbox').map((x) => x.podSandboxId), removedIds, t.name);
  }
});

test('TestPodLogDirectoryGC: directories of pods whose content may be removed, only once all sources are ready', async () => {
  for (const ready of [true, false]) {
    const w = await gcWorld([], [], { allSourcesReady: ready });
    w.fs.dirs.push('123', '456', '789', '012', 'name_namespace_321', 'name_namespace_654');
    for (const uid of ['012', '789', '654']) w.podState.removed.add(uid);
    await w.gc.garbageCollect();
    const want = ready ? ['/var/log/pods/789', '/var/log/pods/012', '/var/log/pods/name_namespace_654'] : [];
    assert.deepEqual(w.fs.removedDirs, want, `allSourcesReady ${ready}`);
  }
});

test('TestUnknownStateContainerGC, except: a container in UNKNOWN state is neither stopped nor removed (only the pod worker kills)', async () => {
  // The kubelet stops it, then removes it. Here the GC never kills; the pod worker stops it when the pod ends.
  const w = await gcWorld([c('foo', 'bar', 0, 0, 'UNKNOWN')], [], { policy: { minAgeMs: HOUR_MS, maxPerPodContainer: 0, maxContainers: 0 } });
  w.podState.removed.add('foo');
  await w.gc.deleteAllUnusedContainers();
  assert.deepEqual(w.remainingContainers(), [0]);
  assert.deepEqual(w.cri.callsOf('stopContainer'), []);
  assert.deepEqual(w.cri.callsOf('removeContainer'), []);
});
