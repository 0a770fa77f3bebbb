// The CPU manager as the kubelet's cpu_manager.go behaves (v1.28): admission through the static policy with
// GetPodAdmitResult's messages, PreCreateContainer's cpuset, the reconcile loop's UpdateContainerResources of
// shared-pool containers, release of a finished pod's CPUs, and the state file checked at the next start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { FakeClock } from '../../util/clock.ts';
import { nullLogger } from '../../util/logger.ts';
import { ONE_NUMA_HT, fakeMachineInfo } from '../topology/testing/fake-sysfs.ts';
import { CpuManager } from './cpu-manager.ts';
import { newCpuPolicy } from './cpu-manager-factory.ts';
import { makePod } from './testing/pods.ts';

const running = (name: string, id: string) => ({ name, containerID: `containerd://${id}`, state: { running: { startedAt: new Date(0) } }, ready: true, restartCount: 0, image: '', imageID: '' });

function setup(policy: 'static' | 'none', reservedSystemCPUs = '0') {
  const dir = mkdtempSync(path.join(tmpdir(), 'h3-cpumanager-'));
  const clock = new FakeClock();
  const active: V1Pod[] = [];
  const statuses = new Map<string, V1PodStatus>();
  const updates: string[] = [];
  const pinning = { requests: 0, errors: 0 };
  const metrics = { cpuManagerPinningRequests: { inc: () => void pinning.requests++ }, cpuManagerPinningErrors: { inc: () => void pinning.errors++ } };
  const make = (p: string) =>
    new CpuManager({
      policy: newCpuPolicy({ policy: p, reservedSystemCPUs, reservedCpuMilli: 0 }, fakeMachineInfo(ONE_NUMA_HT)),
      clock,
      logger: nullLogger,
      stateDir: dir,
      reconcilePeriodMs: 10_000,
      activePods: () => active,
      sourcesReady: () => true,
      podStatus: (uid) => statuses.get(uid),
      updateContainerCpuset: async (id, cpus) => void updates.push(`${id}=${cpus.toString()}`),
      metrics,
    });
  return { dir, clock, active, statuses, updates, pinning, make, manager: make(policy), done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('static: a Guaranteed integer container gets CPUs of its own, the others the shared pool; the loop moves them', async () => {
  const t = setup('static');
  try {
    const m = t.manager;
    m.start();
    // ONE_NUMA_HT: cores {0,2} and {1,3}; CPU 0 reserved. One CPU taken by topology: 2, the sibling of the reserved CPU.
    const g = makePod('uid-g', 'app', '1', '1');
    assert.deepEqual(m.admitHandler.admit({ pod: g, otherPods: [], node: {} as never }), { admit: true });
    t.active.push(g); // an admitted pod is active (the pod manager holds it, not terminal)
    assert.equal(m.cpusetForContainer('uid-g', 'app'), '2');
    const b = makePod('uid-b', 'web', '500m', '1');
    assert.deepEqual(m.admitHandler.admit({ pod: b, otherPods: [g], node: {} as never }), { admit: true });
    t.active.push(b);
    assert.equal(m.cpusetForContainer('uid-b', 'web'), '0-1,3');
    m.addContainer(g, g.spec!.containers[0]!, 'cg');
    m.addContainer(b, b.spec!.containers[0]!, 'cb');
    t.statuses.set('uid-g', { containerStatuses: [running('app', 'cg')] });
    t.statuses.set('uid-b', { containerStatuses: [running('web', 'cb')] });
    await t.clock.step(10_000);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(t.updates, ['cb=0-1,3'], 'only the shared-pool container is updated; the exclusive one got its CPUs at creation');
    // The Guaranteed pod is gone: its CPU goes back to the pool and the shared container is moved onto it.
    t.active.splice(0, 1);
    const r = await m.reconcileState();
    assert.deepEqual(r.success.map((c) => c.containerId), ['cb']);
    assert.deepEqual(t.updates, ['cb=0-1,3', 'cb=0-3']);
    assert.equal(m.getExclusiveCPUs('uid-g', 'app').toString(), '');
    assert.equal(m.getAllocatableCPUs().toString(), '1-3');
    m.stop();
  } finally {
    t.done();
  }
});

test('static: not enough CPUs → UnexpectedAdmissionError with the kubelet message; a waiting container is not updated', async () => {
  const t = setup('static');
  try {
    t.manager.start();
    const big = makePod('uid-big', 'app', '4', '4');
    assert.deepEqual(t.manager.admitHandler.admit({ pod: big, otherPods: [], node: {} as never }), {
      admit: false,
      reason: 'UnexpectedAdmissionError',
      message: 'Allocate failed due to not enough cpus available to satisfy request, which is unexpected',
    });
    // kubelet_cpu_manager_pinning_requests_total / _errors_total count allocations that needed exclusive CPUs.
    assert.deepEqual(t.pinning, { requests: 1, errors: 1 });
    const b = makePod('uid-b', 'web', '100m', '100m');
    t.active.push(b);
    t.statuses.set('uid-b', { containerStatuses: [{ ...running('web', 'cb'), state: { waiting: { reason: 'ContainerCreating' } } }] });
    const r = await t.manager.reconcileState();
    assert.deepEqual(r.failure.map((c) => c.containerName), ['web']);
    assert.deepEqual(t.updates, []);
  } finally {
    t.done();
  }
});

test('none: no cpuset at creation, no reconcile loop; a restart under another policy is refused naming the file', () => {
  const t = setup('none');
  try {
    t.manager.start();
    assert.equal(t.manager.cpusetForContainer('uid', 'c'), '');
    assert.equal(t.clock.pending(), 0, 'policy none runs no reconcile loop');
    assert.throws(() => t.make('static').start(), {
      message: `could not restore state from checkpoint: configured policy "static" differs from state checkpoint policy "none", please drain this node and delete the CPU manager checkpoint file "${path.join(t.dir, 'cpu_manager_state')}" before restarting Kubelet`,
    });
  } finally {
    t.done();
  }
});

test('NewManager errors: unknown policy, a static policy without reserved CPUs, reserved CPUs not online', () => {
  const machine = fakeMachineInfo(ONE_NUMA_HT);
  assert.throws(() => newCpuPolicy({ policy: 'dynamic', reservedCpuMilli: 0 }, machine), { message: 'unknown policy: "dynamic"' });
  assert.throws(() => newCpuPolicy({ policy: 'static', reservedCpuMilli: 0 }, machine), { message: '[cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero' });
  assert.throws(() => newCpuPolicy({ policy: 'static', reservedSystemCPUs: '7', reservedCpuMilli: 0 }, machine), { message: 'reserved-cpus: 7 is not a subset of online-cpus: 0-3' });
  assert.throws(() => newCpuPolicy({ policy: 'none', policyOptions: { 'full-pcpus-only': 'true' }, reservedCpuMilli: 0 }, machine), { message: 'new none policy error: None policy: received unsupported options=map[full-pcpus-only:true]' });
  // ceil(kubeReserved.cpu + systemReserved.cpu): 1500m reserves 2 CPUs, taken by topology (a whole core: 0 and 2).
  const p = newCpuPolicy({ policy: 'static', reservedCpuMilli: 1500 }, machine);
  assert.equal(p.getAllocatableCPUs(undefined as never).toString(), '1,3');
});
