/**
 * The mock agent's image inventory (images.list / images.gcRunning), certificates (certificates.status) and graceful
 * shutdown (shutdown.progress, `shutdown` events). Images: the world's pods' images in use plus three unused ones
 * that a manual image GC (gc.images, mock-pressure.ts) removes. Certificates: a client certificate rotated every
 * hour at 80 % of its lifetime and a self-signed serving one. Shutdown: armed (regular 20 s, critical 10 s); a
 * simulated shutdown (startShutdown(), or `shutdownAfterMs` after the start) kills the regular pods two seconds
 * apart (capped at the group's 20 s), then the kube-system ones in the critical group.
 */
import type { CertificatesStatus, ImageInventory, ImageInventoryItem, ShutdownProgress } from '@nodelet/agent/types';
import type { MockWorld } from './mock-world.ts';
import type { MockPressure } from './mock-pressure.ts';

const MiB = 2 ** 20;
const HOUR = 3_600_000;

export interface MockNodeExtras {
  images(): ImageInventory;
  gcRunning(): { images: boolean; containers: boolean };
  certificates(): CertificatesStatus;
  shutdown(): ShutdownProgress;
  /** Starts the simulated shutdown now (the mock agent's POST /mock/shutdown). */
  startShutdown(): void;
  /** Publishes a `shutdown` event when the simulated shutdown moved on. */
  tick(): void;
}

const UNUSED = ['docker.io/library/nginx:1.25', 'registry.local/tools/debug:3', 'quay.io/prometheus/busybox:latest'];

export function createMockNodeExtras(world: MockWorld, pressure: MockPressure, opts: { shutdownAfterMs?: number; now?: () => number } = {}): MockNodeExtras {
  const now = opts.now ?? Date.now;
  const t0 = now();
  let last = '';
  let shutdownAt = opts.shutdownAfterMs === undefined ? undefined : t0 + opts.shutdownAfterMs;

  function item(tag: string, pods: string[], i: number): ImageInventoryItem {
    const inUse = pods.length > 0;
    const seen = new Date(t0 - (i + 1) * HOUR).toISOString();
    return {
      id: `sha256:${(i + 1).toString(16).padStart(64, '0')}`, tags: [tag], digests: [], sizeBytes: (40 + i * 17) * MiB, pinned: false, inUse, pods,
      firstDetected: seen, lastUsed: inUse ? new Date(now()).toISOString() : seen,
      nextGc: { remove: false, why: inUse ? 'in use' : 'image filesystem below the high threshold (85%)' },
      manualGc: inUse ? { remove: false, why: 'in use' } : { remove: true, why: 'unused for longer than imageMinimumGCAge (2m)' },
    };
  }

  function shutdown(): ShutdownProgress {
    const groups: ShutdownProgress['groups'] = [
      { priority: 0, shutdownGracePeriodSeconds: 20, state: 'pending', pods: [] },
      { priority: 2_000_000_000, shutdownGracePeriodSeconds: 10, state: 'pending', pods: [] },
    ];
    if (shutdownAt === undefined || now() < shutdownAt) return { phase: 'idle', groups };
    const start = shutdownAt;
    const iso = (ms: number) => new Date(start + ms).toISOString();
    const elapsed = now() - start;
    const pods = world.pods();
    const regular = pods.filter((p) => p.metadata?.namespace !== 'kube-system');
    const critical = pods.filter((p) => p.metadata?.namespace === 'kube-system');
    const podsOf = (list: typeof pods, from: number, grace: number) =>
      list.map((p, i) => {
        const end = from + Math.min((i + 1) * 2_000, grace * 1000);
        return {
          namespace: p.metadata!.namespace!, name: p.metadata!.name!, uid: p.metadata!.uid!, gracePeriodSeconds: grace, startedAt: iso(from),
          ...(elapsed >= end ? { state: 'terminated' as const, finishedAt: iso(end) } : { state: 'terminating' as const }),
        };
      });
    const regularEnd = Math.min(regular.length * 2_000, 20_000);
    groups[0] = { ...groups[0]!, state: elapsed >= regularEnd ? 'done' : 'running', startedAt: iso(0), pods: podsOf(regular, 0, 20), ...(elapsed >= regularEnd ? { finishedAt: iso(regularEnd) } : {}) };
    const criticalEnd = regularEnd + Math.min(critical.length * 2_000, 10_000);
    if (elapsed >= regularEnd) {
      groups[1] = { ...groups[1]!, state: elapsed >= criticalEnd ? 'done' : 'running', startedAt: iso(regularEnd), pods: podsOf(critical, regularEnd, 10), ...(elapsed >= criticalEnd ? { finishedAt: iso(criticalEnd) } : {}) };
    }
    const done = elapsed >= criticalEnd;
    return { phase: done ? 'done' : 'shuttingDown', ...(done ? { endTime: iso(criticalEnd) } : { message: 'node is shutting down' }), startTime: iso(0), groups };
  }

  return {
    images() {
      const byImage = new Map<string, string[]>();
      for (const p of world.pods()) for (const c of p.spec?.containers ?? []) byImage.set(c.image ?? '', [...(byImage.get(c.image ?? '') ?? []), `${p.metadata?.namespace}/${p.metadata?.name}`]);
      const unused = pressure.gcLast().images ? [] : UNUSED;
      const items = [...[...byImage].map(([tag, pods], i) => item(tag, pods, i)), ...unused.map((tag, i) => item(tag, [], byImage.size + i))];
      return { time: new Date(now()).toISOString(), running: false, imageFs: { capacityBytes: 250 * 1024 * MiB, availableBytes: 88 * 1024 * MiB, usagePercent: 65 }, images: items };
    },
    gcRunning: () => ({ images: false, containers: false }),
    certificates() {
      // Issued at start, then re-issued at 80 % of each one-hour lifetime.
      const born = t0 + Math.floor((now() - t0) / (0.8 * HOUR)) * 0.8 * HOUR;
      return {
        client: {
          source: 'rotating', subject: 'O=system:nodes\nCN=system:node:mock-node-1', issuer: 'CN=kubernetes', notBefore: new Date(born).toISOString(),
          notAfter: new Date(born + HOUR).toISOString(), nextRotation: new Date(born + 0.8 * HOUR).toISOString(), renewErrors: 0, rotations: Math.floor((now() - t0) / (0.8 * HOUR)),
        },
        serving: { source: 'generated', subject: 'CN=mock-node-1@1764140000', issuer: 'CN=mock-node-1-ca@1764140000', notBefore: new Date(t0).toISOString(), notAfter: new Date(t0 + 365 * 24 * HOUR).toISOString() },
      };
    },
    shutdown,
    startShutdown: () => void (shutdownAt = now()),
    tick() {
      const p = shutdown();
      const text = JSON.stringify(p);
      if (p.phase !== 'idle' && text !== last) world.publish({ type: 'shutdown', progress: p });
      last = text;
    },
  };
}
