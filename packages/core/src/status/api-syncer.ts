/**
 * Pushes pod statuses to the API server (the status manager's syncPod): one serial sender per pod; versions
 * that arrive while a patch is in flight coalesce (only the newest is sent, none is lost: the sender loops
 * until the sent version is the latest); a strategic merge patch of pods/<name>/status with
 * `$setElementOrder/conditions` and a metadata.uid precondition; Conflicts are retried; failures stay pending
 * and a periodic pass (10 s) retries them. Static pods report through their mirror pod. Once a pod whose
 * deletion was requested is terminal with nothing running, it is deleted with grace 0 and a uid precondition
 * (the deletion handshake).
 */
import type { V1PodStatus } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import type { PodRef } from '../events/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { StatusSyncer, VersionedPodStatus } from './types.ts';

export interface ApiStatusSyncerDeps {
  client: ApiClient;
  clock: Clock;
  logger: Logger;
  /** The API object the status goes to (the mirror pod for a static pod); undefined: not yet (retried later). */
  target(uid: string): PodRef | undefined;
  /** Deletion requested, terminal, no container running: the kubelet may delete the API object. */
  canBeDeleted(uid: string, status: V1PodStatus): boolean;
}

interface Entry {
  latest: VersionedPodStatus;
  sent: number;
  inFlight?: Promise<void>;
  deleted?: boolean;
}

const SMP = 'application/strategic-merge-patch+json';
const CONFLICT_RETRIES = 3;

/**
 * The status as a strategic merge patch: conditions merge by type, so a condition's reason/message that is
 * gone must be sent as null (as the kubelet's two-way diff does); `$setElementOrder/conditions` keeps order.
 */
export function statusPatch(status: V1PodStatus): Record<string, unknown> {
  const conditions = (status.conditions ?? []).map((c) => ({ ...c, reason: c.reason ?? null, message: c.message ?? null }));
  return { ...status, conditions, '$setElementOrder/conditions': conditions.map((c) => ({ type: c.type })) };
}

export class ApiStatusSyncer implements StatusSyncer {
  private readonly entries = new Map<string, Entry>();
  private timer: TimerHandle | undefined;
  /** Patches sent (tests). */
  patches = 0;

  constructor(
    private readonly deps: ApiStatusSyncerDeps,
    private readonly config: { resyncMs?: number } = {},
  ) {}

  start(): void {
    this.timer ??= this.deps.clock.setInterval(() => void this.syncAll(), this.config.resyncMs ?? 10_000);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  sync(v: VersionedPodStatus): Promise<void> {
    const uid = v.pod.uid;
    const e = this.entries.get(uid);
    if (e && e.latest.version >= v.version) return e.inFlight ?? Promise.resolve();
    if (e) e.latest = v;
    else this.entries.set(uid, { latest: v, sent: 0 });
    return this.kick(uid);
  }

  forget(uid: string): void {
    this.entries.delete(uid);
  }

  /** Retry everything pending (and pending deletions). */
  async syncAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((uid) => this.kick(uid)));
  }

  /** The newest version the API server has acknowledged for a pod (tests). */
  sentVersion(uid: string): number {
    return this.entries.get(uid)?.sent ?? 0;
  }

  kick(uid: string): Promise<void> {
    const e = this.entries.get(uid);
    if (!e) return Promise.resolve();
    e.inFlight ??= this.drain(uid, e).finally(() => (e.inFlight = undefined));
    return e.inFlight;
  }

  private async drain(uid: string, e: Entry): Promise<void> {
    while (!e.deleted && e.latest.version > e.sent && this.entries.get(uid) === e) {
      const v = e.latest;
      const outcome = await this.patch(v);
      if (outcome === 'retry-later') return;
      if (outcome === 'gone') {
        this.entries.delete(uid);
        return;
      }
      e.sent = v.version;
    }
    if (!e.deleted && e.sent > 0 && this.deps.canBeDeleted(uid, e.latest.status)) await this.delete(uid, e);
  }

  private async patch(v: VersionedPodStatus): Promise<'ok' | 'retry-later' | 'gone'> {
    for (let attempt = 0; attempt < CONFLICT_RETRIES; attempt++) {
      const t = this.deps.target(v.pod.uid);
      if (!t) return 'retry-later';
      const body = { metadata: { uid: t.uid }, status: statusPatch(v.status) };
      const r = await this.deps.client.request({ method: 'PATCH', path: `/api/v1/namespaces/${t.namespace}/pods/${t.name}/status`, contentType: SMP, body });
      if (r.ok) {
        this.patches++;
        this.deps.logger.debug('status patched', { pod: `${t.namespace}/${t.name}`, version: v.version, phase: v.status.phase });
        return 'ok';
      }
      if (r.reason === 'NotFound') return 'gone';
      if (r.reason !== 'Conflict') {
        this.deps.logger.warn('failed to update status for pod', { pod: `${t.namespace}/${t.name}`, reason: r.reason, err: r.message });
        return 'retry-later';
      }
    }
    return 'retry-later';
  }

  private async delete(uid: string, e: Entry): Promise<void> {
    const t = this.deps.target(uid);
    if (!t) return;
    const r = await this.deps.client.request({
      method: 'DELETE',
      path: `/api/v1/namespaces/${t.namespace}/pods/${t.name}`,
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: t.uid } },
    });
    if (r.ok || r.reason === 'NotFound') {
      e.deleted = true;
      this.deps.logger.info('pod fully terminated and removed from etcd', { pod: `${t.namespace}/${t.name}` });
    } else {
      this.deps.logger.warn('failed to delete status for pod', { pod: `${t.namespace}/${t.name}`, reason: r.reason, err: r.message });
    }
  }
}
