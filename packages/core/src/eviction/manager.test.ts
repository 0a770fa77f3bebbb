import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import type { Summary } from '../stats/summary-types.ts';
import { EvictionManager, type EvictionKillRequest } from './manager.ts';
import { parseThresholdConfig } from './thresholds.ts';
import type { PressureState } from './types.ts';

const Mi = 2 ** 20;

function pod(name: string, o: { static?: boolean; priority?: number; memReq?: string } = {}): V1Pod {
  return {
    metadata: { name, namespace: 'default', uid: name, ...(o.static ? { annotations: { 'kubernetes.io/config.source': 'file' } } : {}) },
    spec: { ...(o.priority !== undefined ? { priority: o.priority } : {}), containers: [{ name: 'c', resources: o.memReq ? { requests: { memory: o.memReq, cpu: '1' }, limits: { memory: o.memReq, cpu: '1' } } : {} }] },
  };
}

/** A recording world: the stats the manager sees follow `mem` / `disk`, stamped with the clock. */
function world(opts: { hard?: Record<string, string>; soft?: Record<string, string>; grace?: Record<string, string>; reclaim?: Record<string, string> }) {
  const clock = new FakeClock();
  const s = { memAvail: 500 * Mi, diskAvail: 50_000, pods: [] as V1Pod[], usage: {} as Record<string, number> };
  const killed: EvictionKillRequest[] = [];
  const events: string[] = [];
  const states: Array<{ state: PressureState; changed: boolean }> = [];
  const reclaims: string[] = [];
  const summary = async (): Promise<Summary> => {
    const time = new Date(clock.now()).toISOString();
    return {
      node: {
        nodeName: 'n',
        startTime: time,
        memory: { time, availableBytes: s.memAvail, workingSetBytes: 1000 * Mi - s.memAvail },
        fs: { time, availableBytes: s.diskAvail, capacityBytes: 100_000, inodesFree: 1000, inodes: 1000 },
      },
      pods: s.pods.map((p) => ({
        podRef: { name: p.metadata!.name!, namespace: 'default', uid: p.metadata!.uid! },
        startTime: time,
        containers: [{ name: 'c', startTime: time, memory: { time, workingSetBytes: s.usage[p.metadata!.name!] ?? 1 } }],
      })),
    };
  };
  const th = parseThresholdConfig({ evictionHard: opts.hard ?? {}, evictionSoft: opts.soft ?? {}, evictionSoftGracePeriod: opts.grace ?? {}, evictionMinimumReclaim: opts.reclaim ?? {} });
  assert.ok(th.ok);
  const mgr = new EvictionManager(
    {
      clock,
      logger: nullLogger,
      summary,
      activePods: () => s.pods.filter((p) => !killed.some((k) => k.pod === p)),
      killPod: async (req) => {
        killed.push(req);
        return true;
      },
      reclaimers: [
        { name: 'containers', reclaim: async () => void reclaims.push('containers') },
        { name: 'images', reclaim: async () => { reclaims.push('images'); s.diskAvail += 2_000; } },
      ],
      event: (target, type, reason, message) => events.push(`${target.kind === 'Pod' ? target.pod.metadata?.name : 'node'} ${type} ${reason} ${message}`),
      onState: (state, changed) => states.push({ state, changed }),
    },
    { thresholds: th.value, pressureTransitionPeriodMs: 300_000, monitoringPeriodMs: 10_000, maxPodGracePeriodSeconds: 30 },
  );
  return { clock, s, killed, events, states, reclaims, mgr };
}

test('hard memory threshold: one eviction per pass, ranked, critical pods skipped', async () => {
  const w = world({ hard: { 'memory.available': '600Mi' } });
  w.s.pods = [pod('static-hog', { static: true }), pod('guaranteed', { memReq: '10Gi' }), pod('besteffort'), pod('besteffort-big')];
  w.s.usage = { 'static-hog': 900 * Mi, guaranteed: 50 * Mi, besteffort: 10 * Mi, 'besteffort-big': 20 * Mi };
  w.mgr.start();
  await w.clock.step(0);
  assert.deepEqual(w.killed.map((k) => k.pod.metadata?.name), ['besteffort-big']);
  assert.equal(w.killed[0]?.gracePeriodOverrideSeconds, 0);
  assert.equal(w.killed[0]?.message, 'The node was low on resource: memory. Threshold quantity: 600Mi, available: 500Mi. ');
  assert.deepEqual(w.mgr.pressure(), ['MemoryPressure']);
  assert.deepEqual(w.reclaims, [], 'memory has no node-level reclaim');
  await w.clock.step(10_000);
  await w.clock.step(10_000);
  assert.deepEqual(w.killed.map((k) => k.pod.metadata?.name), ['besteffort-big', 'besteffort', 'guaranteed']);
  await w.clock.step(10_000);
  assert.equal(w.killed.length, 3, 'only the critical static pod is left: never evicted');
  assert.ok(w.events.includes('besteffort-big Warning Evicted The node was low on resource: memory. Threshold quantity: 600Mi, available: 500Mi. '));
  assert.ok(w.events.some((e) => e === 'node Warning EvictionThresholdMet Attempting to reclaim memory'));
  assert.equal(w.mgr.state().evictions.length, 3);
  w.mgr.stop();
});

test('pressure condition held for the transition period after the signal recovers', async () => {
  const w = world({ hard: { 'memory.available': '600Mi' } });
  w.mgr.start();
  await w.clock.step(0);
  assert.deepEqual(w.mgr.pressure(), ['MemoryPressure']);
  assert.equal(w.states[0]?.changed, true);
  w.s.memAvail = 900 * Mi;
  await w.clock.step(290_000);
  assert.deepEqual(w.mgr.pressure(), ['MemoryPressure'], 'still within 5m of the last observation');
  await w.clock.step(10_000);
  assert.deepEqual(w.mgr.pressure(), []);
  assert.equal(w.states.filter((s) => s.changed).length, 2);
  w.mgr.stop();
});

test('soft threshold acts only after its grace period, with evictionMaxPodGracePeriod', async () => {
  const w = world({ soft: { 'memory.available': '600Mi' }, grace: { 'memory.available': '30s' } });
  w.s.pods = [pod('a')];
  w.mgr.start();
  await w.clock.step(0);
  assert.deepEqual(w.mgr.pressure(), ['MemoryPressure'], 'condition is immediate');
  const sig = w.mgr.state().signals.find((x) => x.signal === 'memory.available');
  assert.equal(sig?.thresholds[0]?.graceRemainingMs, 30_000);
  await w.clock.step(20_000);
  assert.equal(w.killed.length, 0);
  await w.clock.step(10_000);
  assert.equal(w.killed.length, 1);
  assert.equal(w.killed[0]?.gracePeriodOverrideSeconds, 30);
  w.mgr.stop();
});

test('soft threshold that clears before its grace period restarts the countdown', async () => {
  const w = world({ soft: { 'memory.available': '600Mi' }, grace: { 'memory.available': '30s' } });
  w.s.pods = [pod('a')];
  w.mgr.start();
  await w.clock.step(20_000);
  w.s.memAvail = 900 * Mi;
  await w.clock.step(10_000);
  w.s.memAvail = 500 * Mi;
  await w.clock.step(30_000);
  assert.equal(w.killed.length, 0, 'first observed again at t=40s: 20s elapsed at t=60s');
  await w.clock.step(10_000);
  assert.equal(w.killed.length, 1);
  w.mgr.stop();
});

test('disk pressure: node-level reclaim first; eviction only when reclaim is not enough', async () => {
  const w = world({ hard: { 'nodefs.available': '10%' }, reclaim: { 'nodefs.available': '1000' } });
  w.s.pods = [pod('a')];
  w.s.diskAvail = 9_500;
  w.mgr.start();
  await w.clock.step(0);
  assert.deepEqual(w.reclaims, ['containers', 'images']);
  assert.equal(w.killed.length, 0, 'reclaim freed 2000 bytes: 11500 ≥ 10000 + 1000');
  assert.deepEqual(w.mgr.pressure(), ['DiskPressure']);
  w.s.diskAvail = 5_000;
  await w.clock.step(10_000);
  assert.deepEqual(w.reclaims, ['containers', 'images', 'containers', 'images']);
  assert.equal(w.killed.length, 1, '7000 after reclaim is still under the threshold');
  assert.match(w.killed[0]?.message ?? '', /^The node was low on resource: ephemeral-storage\. Threshold quantity: 10000, available: 5000\. $/);
  w.mgr.stop();
});

test('minimum reclaim keeps the threshold met until available ≥ threshold + reclaim', async () => {
  const w = world({ hard: { 'memory.available': '600Mi' }, reclaim: { 'memory.available': '100Mi' } });
  w.mgr.start();
  await w.clock.step(0);
  w.s.memAvail = 650 * Mi;
  await w.clock.step(10_000);
  assert.equal(w.mgr.state().signals.find((x) => x.signal === 'memory.available')?.thresholds[0]?.met, true);
  w.s.memAvail = 710 * Mi;
  await w.clock.step(10_000);
  assert.equal(w.mgr.state().signals.find((x) => x.signal === 'memory.available')?.thresholds[0]?.met, false);
  w.mgr.stop();
});

test('stale stats: no action on a threshold whose observation did not change', async () => {
  const w = world({ hard: { 'memory.available': '600Mi' } });
  w.s.pods = [pod('a'), pod('b')];
  await w.mgr.synchronize();
  await w.mgr.synchronize();
  assert.equal(w.killed.length, 1, 'same stats timestamp twice: the second pass does not evict');
});
