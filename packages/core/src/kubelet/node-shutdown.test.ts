/**
 * The node shutdown manager. Expected values from upstream pkg/kubelet/nodeshutdown (v1.28):
 * nodeshutdown_manager_linux_test.go (TestManager, Test_migrateConfig, Test_groupByPriority) and the manager's
 * constants (reason Terminated, messages, NodeShutdown admission reason, "node is shutting down"), storage.go's state file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { makePod } from '../kuberuntime/testing/builders.ts';
import { groupByPriority, migrateConfig, sortGroups } from './node-shutdown-groups.ts';
import { NodeShutdownManager, nodeShutdownStatus, type InhibitLock, type ShutdownInhibitor } from './node-shutdown.ts';
import type { PodStatusFunc } from './pod-worker-types.ts';
import { fileShutdownStateStore } from './node-shutdown-state.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pod = (name: string, priority?: number, grace?: number): V1Pod => {
  const p = makePod({ name, ...(grace !== undefined ? { grace } : {}) });
  if (priority !== undefined) p.spec!.priority = priority;
  return p;
};

/** A recording logind double: lock ids, releases, and a way to send PrepareForShutdown. */
class RecordingInhibitor implements ShutdownInhibitor {
  log: string[] = [];
  delay = 30;
  afterReload: number | undefined;
  private n = 0;
  send: (v: boolean) => void = () => {};
  async currentInhibitDelaySeconds() {
    return this.delay;
  }
  async overrideInhibitDelay(s: number) {
    this.log.push(`override ${s}`);
  }
  async reloadLogindConf() {
    this.log.push('reload');
    if (this.afterReload !== undefined) this.delay = this.afterReload;
  }
  async inhibitShutdown(): Promise<InhibitLock> {
    const id = `lock${++this.n}`;
    this.log.push(`take ${id}`);
    return { id };
  }
  async releaseInhibitLock(l: InhibitLock) {
    this.log.push(`release ${l.id}`);
  }
  async monitorShutdown(onEvent: (v: boolean) => void) {
    this.send = onEvent;
    return { stop: () => this.log.push('unwatch') };
  }
}

function setup(pods: V1Pod[], opts: { period?: number; critical?: number; inhibitor?: ShutdownInhibitor; hang?: Set<string> } = {}) {
  const clock = new FakeClock();
  const kills: Array<{ name: string; grace: number; status: PodStatusFunc; at: number }> = [];
  const events: string[] = [];
  let syncs = 0;
  const killed = new Map<string, () => void>();
  const m = new NodeShutdownManager(
    {
      clock,
      logger: nullLogger,
      recorder: { event: (ref, type, reason, message) => void events.push(`${ref.kind}/${ref.name} ${type} ${reason} ${message}`) },
      nodeName: 'n1',
      activePods: () => pods,
      killPod: (p, grace, status) => {
        kills.push({ name: p.metadata!.name!, grace, status, at: clock.now() });
        if (opts.hang?.has(p.metadata!.name!)) return new Promise<void>((r) => killed.set(p.metadata!.name!, r));
        return Promise.resolve();
      },
      syncNodeStatus: () => void syncs++,
      ...(opts.inhibitor ? { inhibitor: opts.inhibitor } : {}),
    },
    migrateConfig(opts.period ?? 30, opts.critical ?? 10),
  );
  const flush = () => new Promise((r) => setImmediate(r));
  return { clock, m, kills, events, syncs: () => syncs, killed, flush };
}

test('migrateConfig: the regular group gets the period minus the critical share (upstream Test_migrateConfig)', () => {
  assert.deepEqual(migrateConfig(300, 120), [
    { priority: 0, shutdownGracePeriodSeconds: 180 },
    { priority: 2000000000, shutdownGracePeriodSeconds: 120 },
  ]);
  assert.deepEqual(migrateConfig(100, 0), [
    { priority: 0, shutdownGracePeriodSeconds: 100 },
    { priority: 2000000000, shutdownGracePeriodSeconds: 0 },
  ]);
  assert.deepEqual(migrateConfig(0, 0), [], 'off when shutdownGracePeriod is 0');
  assert.deepEqual(migrateConfig(10, 20), [], 'a critical share above the period: no groups');
});

test('groupByPriority: a pod goes to the highest group not above its priority; outliers to the ends (upstream Test_groupByPriority)', () => {
  const groups = sortGroups([
    { priority: 40, shutdownGracePeriodSeconds: 4 },
    { priority: 10, shutdownGracePeriodSeconds: 1 },
    { priority: 20, shutdownGracePeriodSeconds: 2 },
    { priority: 30, shutdownGracePeriodSeconds: 3 },
  ]);
  const pods = [pod('p0', 0), pod('p10', 10), pod('p15', 15), pod('p20', 20), pod('p35', 35), pod('p40', 40), pod('p50', 50), pod('none')];
  const got = groupByPriority(groups, pods).map((g) => [g.priority, g.pods.map((p) => p.metadata!.name)]);
  assert.deepEqual(got, [
    [10, ['p0', 'p10', 'p15', 'none']],
    [20, ['p20']],
    [30, ['p35']],
    [40, ['p40', 'p50']],
  ]);
});

test('shutdown: regular pods first with min(own grace, 20s), critical ones after with 10s (upstream TestManager 30s/10s)', async () => {
  const pods = [pod('normal-pod-nil-grace-period'), pod('critical-pod-nil-grace-period', 2000000000), pod('normal-short', 0, 5), pod('critical-long', 2000000000, 300)];
  const s = setup(pods, { hang: new Set(['normal-pod-nil-grace-period']) });
  const done = s.m.shutdownNow();
  await s.flush();
  assert.deepEqual(s.kills.map((k) => [k.name, k.grace]), [['normal-pod-nil-grace-period', 20], ['normal-short', 5]], 'critical pods wait while the regular group runs');
  assert.equal(s.m.shutdownStatus(), 'node is shutting down');
  assert.equal(s.syncs(), 1, 'the node status is posted at once');
  await s.clock.step(20_000); // the regular group's period passes with one pod still terminating
  await done;
  assert.deepEqual(s.kills.map((k) => [k.name, k.grace, k.at - s.kills[0]!.at]), [
    ['normal-pod-nil-grace-period', 20, 0],
    ['normal-short', 5, 0],
    ['critical-pod-nil-grace-period', 10, 20_000],
    ['critical-long', 10, 20_000],
  ]);
  assert.deepEqual(s.events, ['Node/n1 Normal NodeShutdown Shutdown manager detected shutdown event']);
});

test('a group whose pods all terminate early does not wait out its period', async () => {
  const s = setup([pod('a'), pod('c', 2000000000)]);
  await s.m.shutdownNow();
  assert.deepEqual(s.kills.map((k) => [k.name, k.at]), [['a', s.kills[0]!.at], ['c', s.kills[0]!.at]]);
});

test('the kill carries Failed / Terminated with the DisruptionTarget condition; a Succeeded pod stays Succeeded', () => {
  const running: V1PodStatus = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  nodeShutdownStatus(running);
  assert.equal(running.phase, 'Failed');
  assert.equal(running.reason, 'Terminated');
  assert.equal(running.message, 'Pod was terminated in response to imminent node shutdown.');
  assert.deepEqual(running.conditions?.find((c) => c.type === 'DisruptionTarget'), {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'TerminationByKubelet',
    message: 'Pod was terminated in response to imminent node shutdown.',
  });
  const done: V1PodStatus = { phase: 'Succeeded' };
  nodeShutdownStatus(done);
  assert.equal(done.phase, 'Succeeded');
  assert.equal(done.reason, 'Terminated');
});

test('admission: pods are refused while the node shuts down (NodeShutdown), admitted again after a cancellation', async () => {
  const inhibitor = new RecordingInhibitor();
  const s = setup([], { inhibitor });
  await s.m.start();
  const attrs = { pod: pod('new'), otherPods: [], node: { name: 'n1', labels: {}, allocatable: { cpuMilli: 1, memoryBytes: 1, pods: 1 } } };
  assert.deepEqual(s.m.admitHandler.admit(attrs), { admit: true });
  inhibitor.send(true);
  await s.flush();
  assert.deepEqual(s.m.admitHandler.admit(attrs), { admit: false, reason: 'NodeShutdown', message: 'Pod was rejected as the node is shutting down.' });
  inhibitor.send(false);
  await s.flush();
  assert.deepEqual(s.m.admitHandler.admit(attrs), { admit: true });
  assert.equal(s.m.shutdownStatus(), undefined);
  assert.deepEqual(s.events.map((e) => e.split(' NodeShutdown ')[1]), ['Shutdown manager detected shutdown event', 'Shutdown manager detected shutdown cancellation']);
});

test('logind: the lock is taken at start, released after the last group, taken again after PrepareForShutdown(false)', async () => {
  const inhibitor = new RecordingInhibitor();
  const s = setup([pod('a'), pod('c', 2000000000)], { inhibitor });
  await s.m.start();
  assert.deepEqual(inhibitor.log, ['take lock1']);
  inhibitor.send(true);
  await s.flush();
  assert.deepEqual(s.kills.map((k) => k.name), ['a', 'c']);
  assert.deepEqual(inhibitor.log, ['take lock1', 'release lock1'], 'released once both groups are done');
  inhibitor.send(false);
  await s.flush();
  assert.deepEqual(inhibitor.log, ['take lock1', 'release lock1', 'take lock2']);
  await s.m.stop();
  assert.deepEqual(inhibitor.log.slice(-2), ['unwatch', 'release lock2']);
});

test('logind: an InhibitDelayMaxSec below the sum of the periods is overridden and reloaded; still too low is an error', async () => {
  const ok = new RecordingInhibitor();
  ok.delay = 5;
  ok.afterReload = 30;
  await setup([], { inhibitor: ok }).m.start();
  assert.deepEqual(ok.log, ['override 30', 'reload', 'take lock1']);

  const low = new RecordingInhibitor();
  low.delay = 5;
  const errors: string[] = [];
  const clock = new FakeClock();
  const m = new NodeShutdownManager(
    {
      clock,
      logger: { ...nullLogger, error: (msg, f) => void errors.push(`${msg}: ${String(f?.err)}`) },
      recorder: { event: () => undefined },
      nodeName: 'n1',
      activePods: () => [],
      killPod: async () => undefined,
      syncNodeStatus: () => undefined,
      inhibitor: low,
    },
    migrateConfig(30, 10),
  );
  await m.start();
  assert.deepEqual(errors, [
    'Failed to start node shutdown manager: node shutdown manager was unable to update logind InhibitDelayMaxSec to 30s (ShutdownGracePeriod), current value of InhibitDelayMaxSec (5s) is less than requested ShutdownGracePeriod',
  ]);
  assert.ok(!low.log.some((l) => l.startsWith('take')), 'no lock without enough delay');
  await m.stop();
});

test('the last shutdown is kept in <root-dir>/graceful_node_shutdown_state and reported by the two gauges (storage.go, metrics.go)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-shutdown-state-'));
  try {
    const gauges = { start: [] as number[], end: [] as number[] };
    const metrics = { startTime: { set: (v: number) => void gauges.start.push(v) }, endTime: { set: (v: number) => void gauges.end.push(v) } };
    const clock = new FakeClock(Date.UTC(2026, 10, 26, 3, 0, 0));
    let killing = () => {};
    const killStarted = new Promise<void>((r) => (killing = r));
    const deps = {
      clock,
      logger: nullLogger,
      recorder: { event: () => undefined },
      nodeName: 'n1',
      activePods: () => [pod('a')],
      killPod: () => {
        killing();
        return clock.sleep(4_000);
      },
      syncNodeStatus: () => undefined,
      state: { store: fileShutdownStateStore(dir), metrics },
    };
    const m = new NodeShutdownManager(deps, migrateConfig(30, 10));
    await m.start();
    assert.deepEqual(gauges, { start: [], end: [] }, 'no earlier shutdown');
    const done = m.shutdownNow();
    await killStarted; // after the state file was written
    await clock.step(4_000);
    await done;
    const t0 = Date.UTC(2026, 10, 26, 3, 0, 0) / 1000;
    assert.deepEqual(gauges, { start: [t0, t0], end: [0, t0 + 4] });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'graceful_node_shutdown_state'), 'utf8')), { startTime: '2026-11-26T03:00:00.000Z', endTime: '2026-11-26T03:00:04.000Z' });
    // After the reboot: a new manager reports the stored times.
    const after = { start: [] as number[], end: [] as number[] };
    await new NodeShutdownManager({ ...deps, state: { store: fileShutdownStateStore(dir), metrics: { startTime: { set: (v: number) => void after.start.push(v) }, endTime: { set: (v: number) => void after.end.push(v) } } } }, migrateConfig(30, 10)).start();
    assert.deepEqual(after, { start: [t0], end: [t0 + 4] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
