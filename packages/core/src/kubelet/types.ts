/**
 * The facade the agent (apps/agent) consumes. Everything the HTTP servers, tRPC routers and socket.io
 * streams need from core goes through here, so the agent never reaches into individual managers.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventBus, ProbeBusEvent } from '../events/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { ProbeWorkerInfo } from '../prober/types.ts';
import type { EvictionApi, GcApi } from '../eviction/types.ts';
import type { StatsApi } from './stats-api.ts';
import type { NodeResourcesApi } from '../cm/resources-view.ts';
import type { ShutdownProgress } from './node-shutdown-types.ts';

export type { ProbeWorkerInfo } from '../prober/types.ts';
export type { EvictionApi, GcApi, GcResult, PressureState, PressureSample } from '../eviction/types.ts';

export interface HealthCheck {
  /** kubelet's check names: ping, log, syncloop, plus pleg and runtime. */
  name: string;
  ok: boolean;
  message?: string;
}

export interface HealthReport {
  ok: boolean;
  checks: HealthCheck[];
}

/** API-server mode: the node's cluster connection (absent when standalone). */
export interface ClusterStatus {
  /** API server URL. */
  server: string;
  registered: boolean;
  nodeUid?: string;
  /** Last successful lease renewal (ISO). */
  leaseRenewTime?: string;
  /** The API pod source has listed at least once. */
  podsListed: boolean;
  /** The latest failure talking to the API server (cleared on success). */
  lastError?: string;
}

export interface NodeSummary {
  name: string;
  /** Runtime name and version from CRI Version, when reachable. */
  runtime?: { name: string; version: string; apiVersion: string; endpoint: string };
  runtimeReady: boolean;
  runtimeMessage?: string;
  startTime: string;
  kubeletVersion: string;
  podCount: number;
  maxPods: number;
  /** Node pressure conditions currently True (eviction manager; held for evictionPressureTransitionPeriod). */
  pressure?: Array<'MemoryPressure' | 'DiskPressure' | 'PIDPressure'>;
  /** API-server mode: the cluster connection. */
  cluster?: ClusterStatus;
  /** Device plugin resources (GetCapacity): capacity counts all devices, allocatable the healthy ones. */
  devicePlugins?: DevicePluginResources;
}

export interface DevicePluginResources {
  capacity: Record<string, number>;
  allocatable: Record<string, number>;
  /** Resources whose plugin is gone past its grace period: the node reports 0 of them. */
  removed: string[];
}

export interface ContainerLogOptions {
  follow?: boolean;
  tailLines?: number;
  timestamps?: boolean;
  previous?: boolean;
  sinceSeconds?: number;
  sinceTime?: string;
  limitBytes?: number;
  /** 'Stdout' | 'Stderr' | 'All' (default All). */
  stream?: 'Stdout' | 'Stderr' | 'All';
}

/** Expected failures are values carrying a reason; the HTTP layer maps reason → status code. */
export type LogsResult =
  | { ok: true }
  | { ok: false; reason: 'PodNotFound' | 'ContainerNotFound' | 'NoPreviousContainer' | 'LogNotAvailable' | 'BadRequest'; message: string };

/** The probe manager as the agent sees it: the probe table, /metrics/probes and every-run streaming. */
export interface ProbesApi {
  /** Live workers (one per container and probe type), optionally for one namespace / pod. */
  list(filter?: { namespace?: string; pod?: string }): ProbeWorkerInfo[];
  /** The /metrics/probes exposition (prober_probe_total, prober_probe_duration_seconds, process_start_time_seconds). */
  metrics(): Promise<{ contentType: string; body: string }>;
  /**
   * Asks for every probe run (rate-limited per worker) on the bus, not only result changes, until the
   * returned release function is called (reference-counted: one per watching client).
   */
  requestEveryRun(): () => void;
  everyRun(): boolean;
  /** Every run, unthrottled and off the bus (the flight recorder folds equal results into spans); returns the unsubscribe. */
  onRun?(listener: (run: Omit<ProbeBusEvent, 'type' | 'seq'>) => void): () => void;
}

export interface KubeletApi {
  start(): Promise<void>;
  /** Stops loops; leaves running containers alone. Idempotent. */
  stop(): Promise<void>;
  /** Desired pods (from all sources) with their latest status, as GET /pods returns them. */
  getPods(): V1Pod[];
  getPod(namespace: string, name: string): V1Pod | undefined;
  /** Pods as the container runtime reports them (GET /runningpods/). */
  getRunningPods(): Promise<V1Pod[]>;
  healthz(): HealthReport;
  node(): NodeSummary;
  readonly events: EventBus;
  /** Records Kubernetes events (bus, and the API server in API-server mode); absent in fakes. */
  readonly recorder?: Pick<EventRecorder, 'event'>;
  /** Probes (absent in fakes that do not model them). */
  readonly probes?: ProbesApi;
  /** Eviction manager: pressure, thresholds, signal observations, history (absent in fakes). */
  readonly eviction?: EvictionApi;
  /** Image and container GC controls and last results (absent in fakes). */
  readonly gc?: GcApi;
  /** Stats, metrics endpoints and cgroups (absent in fakes and kubelets without a host file system). */
  readonly stats?: StatsApi | undefined;
  /** CPUs, memory per NUMA node and devices as the resource managers hand them out (absent in fakes). */
  readonly resources?: NodeResourcesApi;
  /** Graceful node shutdown (absent unless shutdownGracePeriod is set): the opt-in trigger and its state. */
  readonly nodeShutdown?: { shutdownNow(): Promise<void>; shutdownStatus(): string | undefined; progress(): ShutdownProgress } | undefined;
  /**
   * Writes the container's log (CRI log files decoded; with timestamps when asked) to `write`. With follow,
   * keeps writing until the container ends its log or `signal` aborts.
   */
  containerLogs(
    namespace: string,
    pod: string,
    container: string,
    opts: ContainerLogOptions,
    write: (chunk: string) => void,
    signal: AbortSignal,
  ): Promise<LogsResult>;
}
