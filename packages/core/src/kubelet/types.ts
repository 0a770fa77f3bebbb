/**
 * The facade the agent (apps/agent) consumes. Everything the HTTP servers, tRPC routers and socket.io
 * streams need from core goes through here, so the agent never reaches into individual managers.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventBus } from '../events/types.ts';

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
