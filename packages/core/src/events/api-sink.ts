/**
 * Posts the recorder's events to the API server as core/v1 Events (the event broadcaster's sink): the first
 * occurrence is created (name `<object>.<hex nanoseconds>`, source kubelet/<node>), repeats aggregated by the
 * recorder (count > 1) patch count and lastTimestamp of the same Event (created anew if it is gone). Rate
 * limiting (eventRecordQPS / eventBurst) happens in the recorder; here events are sent one at a time, in order.
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import type { Logger } from '../util/logger.ts';
import type { EventBus, K8sBusEvent } from './types.ts';

export interface EventSinkDeps {
  client: ApiClient;
  bus: EventBus;
  logger: Logger;
  nodeName: string;
}

const secs = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class ApiEventSink {
  private readonly names = new Map<string, { namespace: string; name: string }>();
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;
  /** Events written (created or patched), for tests. */
  written = 0;

  constructor(private readonly deps: EventSinkDeps) {}

  start(): void {
    this.unsubscribe ??= this.deps.bus.subscribe((e) => {
      if (e.type === 'k8sEvent') this.queue = this.queue.then(() => this.write(e)).catch(() => undefined);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.queue;
  }

  /** Resolves when everything queued so far is written. */
  flush(): Promise<void> {
    return this.queue;
  }

  private key(e: K8sBusEvent): string {
    const o = e.involvedObject;
    return JSON.stringify([o.kind, o.namespace, o.name, o.uid, o.fieldPath, e.eventType, e.reason, e.message]);
  }

  async write(e: K8sBusEvent): Promise<void> {
    const key = this.key(e);
    const known = this.names.get(key);
    if (known && e.count > 1) {
      const r = await this.deps.client.request({
        method: 'PATCH',
        path: `/api/v1/namespaces/${known.namespace}/events/${known.name}`,
        contentType: 'application/strategic-merge-patch+json',
        body: { count: e.count, lastTimestamp: secs(e.lastTimestamp), message: e.message },
      });
      if (r.ok) {
        this.written++;
        return;
      }
      if (r.reason !== 'NotFound') return this.fail(e, r.reason, r.message);
    }
    const ev = this.toEvent(e);
    const ns = ev.metadata.namespace ?? 'default';
    const r = await this.deps.client.request({ method: 'POST', path: `/api/v1/namespaces/${ns}/events`, body: ev });
    if (!r.ok) return this.fail(e, r.reason, r.message);
    this.written++;
    this.names.set(key, { namespace: ns, name: ev.metadata.name ?? '' });
    if (this.names.size > 4096) this.names.delete(this.names.keys().next().value ?? '');
  }

  private fail(e: K8sBusEvent, reason: string, message: string): void {
    this.deps.logger.warn('server rejected event (will not retry)', { reason: e.reason, object: e.involvedObject.name, err: `${reason}: ${message}` });
  }

  toEvent(e: K8sBusEvent): CoreV1Event {
    const o = e.involvedObject;
    const isNode = o.kind === 'Node';
    const namespace = isNode ? 'default' : (o.namespace ?? 'default');
    const nanos = BigInt(new Date(e.time).getTime()) * 1_000_000n + BigInt(e.seq % 1_000_000);
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${o.name}.${nanos.toString(16)}`, namespace },
      involvedObject: {
        apiVersion: 'v1',
        kind: o.kind,
        name: o.name,
        ...(isNode ? { uid: o.uid ?? o.name } : { namespace, ...(o.uid ? { uid: o.uid } : {}) }),
        ...(o.fieldPath ? { fieldPath: o.fieldPath } : {}),
      },
      reason: e.reason,
      message: e.message,
      type: e.eventType,
      source: { component: 'kubelet', host: this.deps.nodeName },
      reportingComponent: 'kubelet',
      reportingInstance: this.deps.nodeName,
      count: e.count,
      firstTimestamp: secs(e.firstTimestamp) as unknown as Date,
      lastTimestamp: secs(e.lastTimestamp) as unknown as Date,
    };
  }
}
