import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EvictionApi, GcApi, GcResult, PressureState } from '@nodelet/core/eviction';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import type { TlsClientOptions } from '../testing/https-client.ts';
import { startTestServer, trpcTestClient, type TestServer } from '../testing/test-server.ts';

const state = (conditions: PressureState['conditions']): PressureState => ({
  conditions,
  signals: [{ signal: 'memory.available', observed: { available: 1, capacity: 2, time: 0 }, thresholds: [{ kind: 'hard', quantity: 5, raw: '5', gracePeriodMs: 0, met: true }] }],
  evictions: [],
  pressureTransitionPeriodMs: 300_000,
});

const INVENTORY_ITEM = {
  id: 'sha256:1', tags: ['busybox:latest'], digests: [], sizeBytes: 42, pinned: false, inUse: true, pods: ['default/web'],
  firstDetected: 't', lastUsed: 't', nextGc: { remove: false, why: 'in use by a container' }, manualGc: { remove: false, why: 'in use by a container' },
};

class GcKubelet extends FakeKubelet {
  readonly gcCalls: string[] = [];
  watchers = new Set<(s: PressureState) => void>();
  readonly eviction: EvictionApi = {
    state: () => state(['MemoryPressure']),
    history: () => [{ time: '2026-01-01T00:00:00.000Z', conditions: ['MemoryPressure'], values: { 'memory.available': { available: 1, capacity: 2 } } }],
    watch: (l) => {
      this.watchers.add(l);
      return () => void this.watchers.delete(l);
    },
  };
  readonly gc: GcApi = {
    images: async (): Promise<GcResult> => {
      this.gcCalls.push('images');
      return { removed: ['busybox:latest'], freedBytes: 42, errors: [], trigger: 'manual', time: 't' };
    },
    containers: async (): Promise<GcResult> => {
      this.gcCalls.push('containers');
      return { removed: [], freedBytes: 0, errors: [], trigger: 'manual', time: 't' };
    },
    last: () => ({}),
    policies: () => ({
      image: { highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 120_000, maxAgeMs: 0, periodMs: 300_000 },
      container: { minAgeMs: 0, maxPerPodContainer: 1, maxContainers: -1, periodMs: 60_000 },
    }),
    imageInventory: async () => ({ time: 't', running: true, images: [INVENTORY_ITEM] }),
    running: () => ({ images: true, containers: false }),
  };
}

let ts: TestServer;
const kubelet = new GcKubelet();

before(async () => {
  ts = await startTestServer(kubelet, { anonymousAuth: true });
});
after(() => ts.close());

const client = (tls: TlsClientOptions) => trpcTestClient(ts.base, tls);

describe('eviction and gc routers', () => {
  it('eviction.state / history / onState', async () => {
    const c = client(ts.consoleTls);
    assert.deepEqual((await c.eviction.state.query())?.conditions, ['MemoryPressure']);
    assert.equal((await c.eviction.history.query()).length, 1);
    const got: PressureState[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = c.eviction.onState.subscribe(undefined, {
        onData: (s) => {
          got.push(s as PressureState);
          if (got.length === 1) for (const w of kubelet.watchers) w(state([]));
          if (got.length === 2) {
            sub.unsubscribe();
            resolve();
          }
        },
        onError: reject,
      });
    });
    assert.deepEqual(got.map((s) => s.conditions), [['MemoryPressure'], []]);
  });

  it('gc mutations run for an authenticated user and return what was removed', async () => {
    const c = client(ts.consoleTls);
    assert.deepEqual(await c.gc.images.mutate(), { removed: ['busybox:latest'], freedBytes: 42, errors: [], time: 't' });
    assert.deepEqual((await c.gc.containers.mutate()).removed, []);
    assert.equal((await c.gc.policies.query())?.image.highThresholdPercent, 85);
    assert.deepEqual(kubelet.gcCalls, ['images', 'containers']);
  });

  it('images.list serves the GC manager\'s inventory and images.gcRunning which GCs run', async () => {
    const c = client(ts.consoleTls);
    assert.deepEqual((await c.images.list.query())?.images, [INVENTORY_ITEM]);
    assert.deepEqual(await c.images.gcRunning.query(), { images: true, containers: false });
  });

  it('anonymous callers (anonymous auth on) may read but not trigger GC', async () => {
    const anon = client(ts.anonymousTls);
    assert.deepEqual((await anon.eviction.state.query())?.conditions, ['MemoryPressure']);
    await assert.rejects(anon.gc.images.mutate(), /garbage collection needs an authenticated user/);
    assert.deepEqual(kubelet.gcCalls, ['images', 'containers']);
  });
});
