/**
 * The kubelet's own /metrics registry (kubelet_* via createKubeletMetrics): the CRI operations seam, pod start
 * duration (first seen → Running, from the event bus), started containers, and the running/desired/active
 * gauges refreshed at scrape time from the pod manager and the runtime status cache.
 */
import type { Registry } from 'prom-client';
import type { PodStatus } from '../container/types.ts';
import type { EventBus } from '../events/types.ts';
import { createKubeletMetrics, type KubeletMetrics } from '../metrics/kubelet-metrics.ts';
import { createRegistry } from '../metrics/registry.ts';
import type { RuntimeMetrics } from '../kuberuntime/types.ts';
import type { Clock } from '../util/clock.ts';

export interface PodView {
  uid: string;
  /** From the file or HTTP source (static pods). */
  static: boolean;
  /** spec.ephemeralContainers of the pod (kubelet_managed_ephemeral_containers). */
  ephemeralContainers?: number;
}

export interface KubeletMetricsWiringDeps {
  clock: Clock;
  nodeName: string;
  pods: () => PodView[];
  status: (uid: string) => PodStatus | undefined;
  /** Pods with a worker that is not finished (active). */
  active: (uid: string) => boolean;
}

export class KubeletMetricsWiring {
  readonly registry: Registry;
  readonly metrics: KubeletMetrics;
  private readonly firstSeen = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: KubeletMetricsWiringDeps) {
    this.registry = createRegistry();
    this.metrics = createKubeletMetrics(this.registry);
    this.metrics.nodeName.set({ node: deps.nodeName }, 1);
  }

  /** The instrumented CRI client's seam. */
  readonly runtime: RuntimeMetrics = {
    observeOperation: (operation, seconds, error, runtimeHandler = '') => {
      const m = this.metrics;
      m.runtimeOperations.inc({ operation_type: operation });
      m.runtimeOperationsDuration.observe({ operation_type: operation }, seconds);
      if (error) m.runtimeOperationsErrors.inc({ operation_type: operation });
      if (operation === 'run_podsandbox') {
        m.runPodSandboxDuration.observe({ runtime_handler: runtimeHandler }, seconds);
        if (error) m.runPodSandboxErrors.inc({ runtime_handler: runtimeHandler });
      }
    },
  };

  /** Follows the bus: pod first seen (podConfig ADD) → first Running status = kubelet_pod_start_duration_seconds. */
  attach(bus: EventBus): void {
    this.unsubscribe?.();
    this.unsubscribe = bus.subscribe((e) => {
      const now = this.deps.clock.now();
      if (e.type === 'podConfig') {
        if (e.op === 'ADD' && !this.firstSeen.has(e.pod.uid)) this.firstSeen.set(e.pod.uid, now);
        if (e.op === 'DELETE' || e.op === 'REMOVE') this.firstSeen.delete(e.pod.uid);
      } else if (e.type === 'podStatus' && e.phase === 'Running') {
        const t0 = this.firstSeen.get(e.pod.uid);
        if (t0 !== undefined && t0 >= 0) {
          this.metrics.podStartDuration.observe((now - t0) / 1000);
          this.metrics.startedPods.inc();
          this.firstSeen.set(e.pod.uid, -1);
        }
      } else if (e.type === 'pleg' && e.pleg === 'ContainerStarted') {
        this.metrics.startedContainers.inc({ container_type: 'container' });
      }
    });
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Recomputes the pod/container gauges (called before each scrape). */
  refresh(): void {
    const m = this.metrics;
    const pods = this.deps.pods();
    let runningPods = 0;
    const states = new Map<string, number>([['running', 0], ['exited', 0], ['created', 0], ['unknown', 0]]);
    for (const p of pods) {
      const st = this.deps.status(p.uid);
      if (st?.sandboxStatuses.some((s) => s.state === 'ready')) runningPods++;
      for (const c of st?.containerStatuses ?? []) states.set(c.state, (states.get(c.state) ?? 0) + 1);
    }
    m.runningPods.set(runningPods);
    m.managedEphemeralContainers.set(pods.reduce((n, p) => n + (p.ephemeralContainers ?? 0), 0));
    for (const [state, n] of states) m.runningContainers.set({ container_state: state }, n);
    for (const stat of [true, false]) {
      const group = pods.filter((p) => p.static === stat);
      m.desiredPods.set({ static: String(stat) }, group.length);
      m.activePods.set({ static: String(stat) }, group.filter((p) => this.deps.active(p.uid)).length);
    }
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    this.refresh();
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
