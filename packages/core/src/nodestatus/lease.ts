/**
 * The node lease (kube-node-lease/<node>): renewed every renewInterval (10 s = 1/4 of leaseDurationSeconds 40),
 * holderIdentity = node name, owned by the Node once its uid is known. Create when missing; renew with an
 * update carrying the last seen resourceVersion; a 409 Conflict (or any failure) drops the cached lease so the
 * next try re-gets it; failures retry with a doubling delay (200 ms → 7 s) as the kubelet's lease controller.
 */
import type { V1Lease } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';

export interface LeaseDeps {
  client: ApiClient;
  clock: Clock;
  logger: Logger;
  nodeUid: () => string | undefined;
}

export interface LeaseConfig {
  nodeName: string;
  /** nodeLeaseDurationSeconds (40). */
  leaseDurationSeconds?: number;
  /** Default leaseDuration / 4. */
  renewIntervalMs?: number;
}

export const LEASE_NAMESPACE = 'kube-node-lease';

/** MicroTime: RFC 3339 with microseconds. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class NodeLeaseController {
  private cached: V1Lease | undefined;
  private timer: TimerHandle | undefined;
  private running = false;
  private failures = 0;
  /** Successful renewals (tests, health). */
  renewals = 0;
  /** Clock.now() of the last successful renewal. */
  lastRenew: number | undefined;
  lastError: string | undefined;

  constructor(
    private readonly deps: LeaseDeps,
    private readonly config: LeaseConfig,
  ) {}

  private get durationSeconds(): number {
    return this.config.leaseDurationSeconds ?? 40;
  }

  private get renewMs(): number {
    return this.config.renewIntervalMs ?? (this.durationSeconds * 1000) / 4;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    this.timer?.cancel();
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = this.deps.clock.setTimeout(() => {
      void this.sync().then((ok) => {
        this.failures = ok ? 0 : this.failures + 1;
        this.schedule(ok ? this.renewMs : Math.min(200 * 2 ** (this.failures - 1), 7_000));
      });
    }, ms);
  }

  /** One ensure-or-renew attempt. */
  async sync(): Promise<boolean> {
    const ok = await this.trySync();
    if (ok) {
      this.lastRenew = this.deps.clock.now();
      this.lastError = undefined;
    }
    return ok;
  }

  private async trySync(): Promise<boolean> {
    const base = this.cached ?? (await this.getOrCreate());
    if (!base) return false;
    if (base !== this.cached) {
      this.cached = base;
      if (this.freshlyCreated) {
        this.freshlyCreated = false;
        this.renewals++;
        return true;
      }
    }
    const next = this.renewed(base);
    const r = await this.deps.client.request<V1Lease>({ method: 'PUT', path: this.path(), body: next });
    if (r.ok) {
      this.cached = r.body;
      this.renewals++;
      return true;
    }
    this.lastError = `failed to update lease: ${r.reason}: ${r.message}`;
    this.deps.logger.warn('failed to update lease', { lease: `${LEASE_NAMESPACE}/${this.config.nodeName}`, reason: r.reason, err: r.message });
    this.cached = undefined;
    return false;
  }

  private freshlyCreated = false;

  private async getOrCreate(): Promise<V1Lease | undefined> {
    const got = await this.deps.client.request<V1Lease>({ method: 'GET', path: this.path() });
    if (got.ok) return got.body;
    if (got.reason !== 'NotFound') {
      this.lastError = `failed to get lease: ${got.reason}: ${got.message}`;
      this.deps.logger.warn('failed to get lease', { reason: got.reason, err: got.message });
      return undefined;
    }
    const lease = this.renewed({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.config.nodeName, namespace: LEASE_NAMESPACE } });
    const created = await this.deps.client.request<V1Lease>({ method: 'POST', path: `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases`, body: lease });
    if (!created.ok) {
      this.deps.logger.warn('failed to create lease', { reason: created.reason, err: created.message });
      return undefined;
    }
    this.freshlyCreated = true;
    return created.body;
  }

  private renewed(base: V1Lease): V1Lease {
    const lease = structuredClone(base);
    const uid = this.deps.nodeUid();
    lease.spec = {
      ...(lease.spec ?? {}),
      holderIdentity: this.config.nodeName,
      leaseDurationSeconds: this.durationSeconds,
      renewTime: microTime(this.deps.clock.now()) as unknown as Date,
    };
    const meta = (lease.metadata ??= {});
    if (uid && !(meta.ownerReferences ?? []).some((o) => o.uid === uid)) {
      meta.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: this.config.nodeName, uid }];
    }
    return lease;
  }

  private path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases/${this.config.nodeName}`;
  }
}
