/**
 * Registers the Node and keeps its status: registration (create; AlreadyExists → reconcile labels and
 * status of the existing Node), then every nodeStatusUpdateFrequency (10 s) the setters run against the
 * API's Node and the status is patched only when it changed or nodeStatusReportFrequency (5 min) elapsed
 * since the last report. Condition flips are recorded as node events (NodeReady, NodeNotReady...).
 */
import type { V1Node } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { buildNodeStatus, initialNode, nodeLabels, nodeStatusChanged } from './setters.ts';
import type { NodeEventNote, NodeStatusInput } from './types.ts';

export interface NodeStatusDeps {
  client: ApiClient;
  clock: Clock;
  logger: Logger;
  input: () => Promise<NodeStatusInput>;
  onEvent?: (e: NodeEventNote) => void;
  /**
   * The kubelet's updatePodCIDR: the Node's spec.podCIDRs (joined by ",") to the runtime; true when the range
   * changed (the status is then patched even when nothing else changed), as tryUpdateNodeStatus.
   */
  updatePodCIDR?: (cidrs: string) => Promise<boolean>;
}

export interface NodeStatusConfig {
  nodeName: string;
  registerNode: boolean;
  nodeLabels?: Record<string, string>;
  /** nodeStatusUpdateFrequency (10 s). */
  updateFrequencyMs?: number;
  /** nodeStatusReportFrequency (5 min). */
  reportFrequencyMs?: number;
}

/** nodeStatusUpdateRetry. */
const UPDATE_RETRIES = 5;
const SMP = 'application/strategic-merge-patch+json';

export class NodeStatusManager {
  /** The Node's uid once registered (owner of the lease and mirror pods). */
  nodeUid: string | undefined;
  registered = false;
  lastReport: number | undefined;
  /** status.allocatable as last computed for the Node (the downward API's default limits). */
  allocatable: Record<string, string> | undefined;
  private timer: TimerHandle | undefined;
  private running = false;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly deps: NodeStatusDeps,
    private readonly config: NodeStatusConfig,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.timer = this.deps.clock.setInterval(() => void this.tick(), this.config.updateFrequencyMs ?? 10_000);
    void this.tick();
  }

  stop(): void {
    this.running = false;
    this.timer?.cancel();
  }

  /** One registration/update round now (shared with one in flight). */
  tick(): Promise<void> {
    this.inFlight ??= this.round().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async round(): Promise<void> {
    if (!this.registered) {
      if (!(await this.register())) return;
    }
    await this.updateNodeStatus();
  }

  /** registerWithAPIServer: create, or reconcile an existing Node. */
  async register(): Promise<boolean> {
    const { client, logger } = this.deps;
    const name = this.config.nodeName;
    if (!this.config.registerNode) {
      const got = await client.request<V1Node>({ method: 'GET', path: `/api/v1/nodes/${name}` });
      if (got.ok) this.nodeUid = got.body.metadata?.uid;
      this.registered = got.ok;
      return got.ok;
    }
    const input = await this.deps.input();
    const { node, events } = initialNode(input, this.config.nodeLabels ?? {}, this.deps.clock.now());
    const created = await client.request<V1Node>({ method: 'POST', path: '/api/v1/nodes', body: node });
    if (created.ok) {
      logger.info('successfully registered node', { node: name });
      this.lastReport = this.deps.clock.now();
      for (const e of events) this.deps.onEvent?.(e);
      return this.registeredAs(created.body);
    }
    if (created.reason !== 'AlreadyExists') {
      logger.warn('unable to register node with API server', { node: name, reason: created.reason, err: created.message });
      return false;
    }
    const existing = await client.request<V1Node>({ method: 'GET', path: `/api/v1/nodes/${name}` });
    if (!existing.ok) return false;
    const want = nodeLabels(input, this.config.nodeLabels ?? {});
    const labels = existing.body.metadata?.labels ?? {};
    const missing = Object.fromEntries(Object.entries(want).filter(([k, v]) => labels[k] !== v));
    if (Object.keys(missing).length > 0) {
      const r = await client.request<V1Node>({ method: 'PATCH', path: `/api/v1/nodes/${name}`, contentType: SMP, body: { metadata: { labels: missing } } });
      if (!r.ok) return false;
    }
    logger.info('node already registered; reconciled', { node: name, labels: Object.keys(missing) });
    return this.registeredAs(existing.body);
  }

  private registeredAs(node: V1Node): boolean {
    this.nodeUid = node.metadata?.uid;
    this.registered = true;
    return true;
  }

  /** updateNodeStatus: up to 5 tries of get → setters → patch-if-needed. */
  async updateNodeStatus(): Promise<boolean> {
    for (let i = 0; i < UPDATE_RETRIES; i++) {
      const r = await this.tryUpdate();
      if (r.ok) return true;
      this.deps.logger.warn('error updating node status, will retry', { node: this.config.nodeName, reason: r.reason });
    }
    return false;
  }

  private async tryUpdate(): Promise<{ ok: true } | { ok: false; reason: string }> {
    const { client, clock } = this.deps;
    const name = this.config.nodeName;
    const got = await client.request<V1Node>({ method: 'GET', path: `/api/v1/nodes/${name}` });
    if (!got.ok) {
      if (got.reason === 'NotFound') this.registered = false;
      return { ok: false, reason: `${got.reason}: ${got.message}` };
    }
    this.nodeUid = got.body.metadata?.uid;
    const podCIDRs = got.body.spec?.podCIDRs ?? [];
    const podCIDRChanged = podCIDRs.length > 0 && this.deps.updatePodCIDR ? await this.deps.updatePodCIDR(podCIDRs.join(',')) : false;
    const now = clock.now();
    const { status, events } = buildNodeStatus(got.body.status, await this.deps.input(), now);
    this.allocatable = status.allocatable;
    const changed = podCIDRChanged || nodeStatusChanged(got.body.status, status);
    const due = this.lastReport === undefined || now - this.lastReport >= (this.config.reportFrequencyMs ?? 300_000);
    if (!changed && !due) return { ok: true };
    const conditionOrder = (status.conditions ?? []).map((c) => ({ type: c.type }));
    const body = { status: { ...status, '$setElementOrder/conditions': conditionOrder } };
    const r = await client.request({ method: 'PATCH', path: `/api/v1/nodes/${name}/status`, contentType: SMP, body });
    if (!r.ok) return { ok: false, reason: `${r.reason}: ${r.message}` };
    this.lastReport = now;
    for (const e of events) this.deps.onEvent?.(e);
    return { ok: true };
  }
}
