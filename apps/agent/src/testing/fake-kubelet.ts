/** A recording fake KubeletApi for the agent's server, tRPC and socket.io tests. */
import type { V1Pod } from '@kubernetes/client-node';
import { InMemoryEventBus, type EventBus } from '@nodelet/core/events';
import { realClock } from '@nodelet/core/util';
import type {
  ContainerLogOptions,
  HealthReport,
  KubeletApi,
  LogsResult,
  NodeSummary,
} from '@nodelet/core/kubelet';

export interface LogCall {
  namespace: string;
  pod: string;
  container: string;
  opts: ContainerLogOptions;
}

export function fakePod(namespace: string, name: string, containers: string[] = ['main'], phase = 'Running'): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace, name, uid: `uid-${namespace}-${name}` },
    spec: { containers: containers.map((c) => ({ name: c, image: 'nodelet.local/host:latest' })) },
    status: { phase },
  };
}

export class FakeKubelet implements KubeletApi {
  readonly events: EventBus;
  /** Live bus subscriptions (tRPC subscriptions, sockets). */
  subscribers = 0;
  readonly calls: string[] = [];
  readonly logCalls: LogCall[] = [];
  pods: V1Pod[] = [];
  runningPods: V1Pod[] = [];
  health: HealthReport = { ok: true, checks: [{ name: 'ping', ok: true }, { name: 'syncloop', ok: true }, { name: 'pleg', ok: true }] };
  /** Log text per "ns/pod/container". */
  logs = new Map<string, string>();
  /** Writers of requests currently following a log. */
  private followers = new Map<string, Set<(chunk: string) => void>>();

  constructor() {
    const bus = new InMemoryEventBus({ clock: realClock });
    this.events = {
      publish: (e) => bus.publish(e),
      recent: (f, l) => bus.recent(f, l),
      subscribe: (l) => {
        this.subscribers++;
        const off = bus.subscribe(l);
        return () => {
          this.subscribers--;
          off();
        };
      },
    };
  }

  /** Resolves once at least `n` bus subscriptions are live (bounded wait: 10 s). */
  async waitForSubscribers(n: number): Promise<void> {
    for (let i = 0; i < 1000 && this.subscribers < n; i++) await new Promise((r) => setTimeout(r, 10));
    if (this.subscribers < n) throw new Error(`expected ${n} bus subscribers, have ${this.subscribers}`);
  }

  async start(): Promise<void> {
    this.calls.push('start');
  }

  async stop(): Promise<void> {
    this.calls.push('stop');
  }

  getPods(): V1Pod[] {
    return this.pods;
  }

  getPod(namespace: string, name: string): V1Pod | undefined {
    return this.pods.find((p) => p.metadata?.namespace === namespace && p.metadata?.name === name);
  }

  async getRunningPods(): Promise<V1Pod[]> {
    return this.runningPods;
  }

  healthz(): HealthReport {
    return this.health;
  }

  node(): NodeSummary {
    return {
      name: 'fake-node',
      runtimeReady: true,
      startTime: '2026-01-01T00:00:00.000Z',
      kubeletVersion: 'v0.0.0-fake',
      podCount: this.pods.length,
      maxPods: 110,
    };
  }

  /** Appends to a followed log: every active follower receives the chunk. */
  pushLog(key: string, chunk: string): void {
    this.logs.set(key, (this.logs.get(key) ?? '') + chunk);
    for (const w of this.followers.get(key) ?? []) w(chunk);
  }

  followerCount(key: string): number {
    return this.followers.get(key)?.size ?? 0;
  }

  async containerLogs(
    namespace: string,
    pod: string,
    container: string,
    opts: ContainerLogOptions,
    write: (chunk: string) => void,
    signal: AbortSignal,
  ): Promise<LogsResult> {
    this.logCalls.push({ namespace, pod, container, opts });
    const p = this.getPod(namespace, pod);
    if (!p) return { ok: false, reason: 'PodNotFound', message: `pod "${pod}" in namespace "${namespace}" not found` };
    if (!p.spec?.containers.some((c) => c.name === container)) {
      return { ok: false, reason: 'ContainerNotFound', message: `container "${container}" in pod "${pod}" not found` };
    }
    const key = `${namespace}/${pod}/${container}`;
    let lines = (this.logs.get(key) ?? '').split(/(?<=\n)/).filter((l) => l.length > 0);
    if (opts.tailLines !== undefined) lines = lines.slice(Math.max(0, lines.length - opts.tailLines));
    if (lines.length > 0) write(lines.join(''));
    if (!opts.follow) return { ok: true };
    const set = this.followers.get(key) ?? new Set();
    this.followers.set(key, set);
    set.add(write);
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    set.delete(write);
    return { ok: true };
  }
}
