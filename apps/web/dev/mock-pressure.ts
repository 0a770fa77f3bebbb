/**
 * Mock eviction manager and GC for the mock agent: memory.available drifts down into MemoryPressure and back
 * (publishing `pressure` events on changes); gc.images / gc.containers remove fake images and dead containers
 * and publish `gc` events.
 */
import type { GcPolicies, GcResult, PressureCondition, PressureSample, PressureState, Signal } from '@nodelet/agent/types';
import type { MockWorld } from './mock-world.ts';

const GiB = 2 ** 30;
const MiB = 2 ** 20;

export interface MockPressure {
  state(): PressureState;
  history(sinceMs?: number): PressureSample[];
  gcImages(): Promise<GcResult>;
  gcContainers(): Promise<GcResult>;
  gcLast(): { images: GcResult | null; containers: GcResult | null };
  gcPolicies(): GcPolicies;
  tick(): void;
}

type Obs = { available: number; capacity: number };

export function createMockPressure(world: MockWorld, now: () => number = Date.now): MockPressure {
  let n = 0;
  const hist: PressureSample[] = [];
  let conditions: PressureCondition[] = [];
  const last: { images: GcResult | null; containers: GcResult | null } = { images: null, containers: null };
  let images = ['docker.io/library/nginx:1.25', 'registry.local/tools/debug:3', 'quay.io/prometheus/busybox:latest'];
  let dead = ['default/crasher/app (attempt 1)', 'default/crasher/app (attempt 2)', 'default/ephemeral/sh'];

  function observe(): Partial<Record<Signal, Obs>> {
    const memAvail = (1.2 + Math.cos(n / 4)) * GiB;
    return {
      'memory.available': { available: memAvail, capacity: 24 * GiB },
      'nodefs.available': { available: 88 * GiB - n * 10 * MiB, capacity: 250 * GiB },
      'nodefs.inodesFree': { available: 16_000_000, capacity: 16_777_216 },
      'imagefs.available': { available: 88 * GiB - n * 10 * MiB, capacity: 250 * GiB },
      'imagefs.inodesFree': { available: 16_000_000, capacity: 16_777_216 },
      'pid.available': { available: 32_000 - (n % 5) * 40, capacity: 32_768 },
    };
  }
  let obs = observe();

  function state(): PressureState {
    const th = (signal: Signal, kind: 'hard' | 'soft', raw: string, quantity: number, gracePeriodMs = 0) => {
      const o = obs[signal];
      const met = o ? o.available < quantity : false;
      return { kind, raw, quantity, gracePeriodMs, met, ...(kind === 'soft' && met ? { graceRemainingMs: Math.max(0, 30_000 - (n % 4) * 10_000) } : {}) };
    };
    const cap = (s: Signal) => obs[s]?.capacity ?? 0;
    return {
      conditions,
      lastSync: new Date(now()).toISOString(),
      pressureTransitionPeriodMs: 300_000,
      evictions: n > 8 ? [{ time: new Date(now() - 60_000).toISOString(), pod: { namespace: 'default', name: 'hog', uid: 'uid-hog' }, signal: 'memory.available', qosClass: 'BestEffort', message: 'The node was low on resource: memory. Threshold quantity: 500Mi, available: 412Mi. ' }] : [],
      signals: [
        { signal: 'memory.available', observed: { ...obs['memory.available']!, time: now() }, thresholds: [th('memory.available', 'hard', '500Mi', 500 * MiB), th('memory.available', 'soft', '1Gi', GiB, 90_000)] },
        { signal: 'nodefs.available', observed: { ...obs['nodefs.available']!, time: now() }, thresholds: [th('nodefs.available', 'hard', '10%', cap('nodefs.available') * 0.1)] },
        { signal: 'nodefs.inodesFree', observed: { ...obs['nodefs.inodesFree']!, time: now() }, thresholds: [th('nodefs.inodesFree', 'hard', '5%', cap('nodefs.inodesFree') * 0.05)] },
        { signal: 'imagefs.available', observed: { ...obs['imagefs.available']!, time: now() }, thresholds: [th('imagefs.available', 'hard', '15%', cap('imagefs.available') * 0.15)] },
        { signal: 'imagefs.inodesFree', observed: { ...obs['imagefs.inodesFree']!, time: now() }, thresholds: [] },
        { signal: 'pid.available', observed: { ...obs['pid.available']!, time: now() }, thresholds: [] },
      ],
    };
  }

  function record(): void {
    const t = new Date(now()).toISOString();
    hist.push({ time: t, conditions, values: obs });
    if (hist.length > 360) hist.shift();
  }
  for (let i = 0; i < 20; i++) {
    n = i - 20;
    obs = observe();
    hist.push({ time: new Date(now() - (20 - i) * 10_000).toISOString(), conditions: [], values: obs });
  }
  n = 0;

  function gc(kind: 'images' | 'containers'): GcResult {
    const removed = kind === 'images' ? images : dead;
    if (kind === 'images') images = [];
    else dead = [];
    const r: GcResult = { removed, freedBytes: kind === 'images' ? removed.length * 87 * MiB : removed.length * 24 * 1024, errors: [], trigger: 'manual', time: new Date(now()).toISOString() };
    last[kind] = r;
    world.publish({ type: 'gc', kind, trigger: 'manual', removed: r.removed, freedBytes: r.freedBytes, errors: [] });
    return r;
  }

  return {
    state,
    history: (sinceMs) => hist.filter((h) => sinceMs === undefined || Date.parse(h.time) > sinceMs),
    gcImages: async () => { await new Promise((r) => setTimeout(r, 400)); return gc('images'); },
    gcContainers: async () => { await new Promise((r) => setTimeout(r, 200)); return gc('containers'); },
    gcLast: () => last,
    gcPolicies: () => ({
      image: { highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 120_000, maxAgeMs: 0, periodMs: 300_000 },
      container: { minAgeMs: 0, maxPerPodContainer: 1, maxContainers: -1, periodMs: 60_000 },
    }),
    tick() {
      n += 1;
      obs = observe();
      record();
      const s = state();
      const next: PressureCondition[] = s.signals.some((x) => x.signal === 'memory.available' && x.thresholds.some((t) => t.met && t.kind === 'hard')) ? ['MemoryPressure'] : [];
      if (n % 10 === 5 && dead.length === 0) dead = ['default/crasher/app (attempt 3)'];
      if (next.join() !== conditions.join()) {
        conditions = next;
        world.publish({ type: 'pressure', conditions, signals: s.signals.map((x) => ({ signal: x.signal, available: x.observed?.available, capacity: x.observed?.capacity, met: x.thresholds.some((t) => t.met) })) });
      }
    },
  };
}
