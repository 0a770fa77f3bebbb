/**
 * The probe manager's interfaces and seams (as the kubelet's pkg/kubelet/prober): one worker per
 * (pod, container, probe type), results caches per probe type, and the runners that do the probing.
 *
 * Seams the kubelet wires (core B / lead):
 * - ProbeStatusProvider: the pod's latest V1PodStatus (the status manager's getPodStatus satisfies it).
 * - ProbeStatusSink: readiness/startup flips (the status manager's setContainerReadiness/Startup satisfy it).
 * - ProbeRunner: exec (CRI ExecSync), http, tcp, grpc; real implementations in runners/.
 * - ProbeBusPublisher: the event bus (ProbeBusEvent, in events/types.ts).
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { ProbeBusEvent } from '../events/types.ts';
import type { ProbeResult, ProbeType } from './result-types.ts';

export type { ProbeResult, ProbeType } from './result-types.ts';

/** A probe event as the prober publishes it (the bus adds seq and, when absent, time). */
export type ProbeBusEventInput = Omit<ProbeBusEvent, 'seq' | 'time'> & { time?: string };

/** What a runner reports: the kubelet's probe.Result (Warning = success with a warning event). */
export type RunStatus = 'success' | 'warning' | 'failure' | 'unknown';

export interface RunOutcome {
  status: RunStatus;
  /** Output as the kubelet's (exec output, HTTP body or failure text, connection error text). */
  output: string;
  /**
   * A prober error (e.g. a port name the container does not declare): the kubelet records an
   * "errored" event and throws the run's result away.
   */
  error?: string;
  /** HTTP runs: the final response's status code (absent when no response arrived). */
  httpStatus?: number;
}

export interface ResultUpdate {
  /** CRI container id without the runtime prefix. */
  containerId: string;
  podUid: string;
  containerName: string;
  probeType: ProbeType;
  result: ProbeResult;
}

/** A cache of the latest result per container (the kubelet's results.Manager), one per probe type. */
export interface ResultsManager {
  get(containerId: string): ProbeResult | undefined;
  /** Stores the result; listeners hear about it only when it changed. */
  set(containerId: string, result: ProbeResult, pod: V1Pod, containerName: string): void;
  remove(containerId: string): void;
  /** Returns an unsubscribe function. */
  onUpdate(listener: (u: ResultUpdate) => void): () => void;
}

/** An HTTP GET as a probe or a hook makes it. */
export interface HttpProbeRequest {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** Path with its query string, as written in the spec ('/' when empty). */
  path: string;
  /** Headers in spec order (repeated names allowed). */
  headers: Array<{ name: string; value: string }>;
  timeoutS: number;
  /** 'probe' (User-Agent kube-probe/<ver>) or 'lifecycle' (kube-lifecycle/<ver>). */
  purpose?: 'probe' | 'lifecycle';
}

/** Does one probe run; never throws for expected failures (they are RunOutcome values). */
export interface ProbeRunner {
  /** CRI ExecSync with the probe timeout; exit 0 = success; a timeout fails with "command ... timed out". */
  exec(containerId: string, cmd: string[], timeoutS: number): Promise<RunOutcome>;
  http(req: HttpProbeRequest): Promise<RunOutcome>;
  tcp(host: string, port: number, timeoutS: number): Promise<RunOutcome>;
  grpc(host: string, port: number, service: string, timeoutS: number): Promise<RunOutcome>;
}

/** The pod's latest status (podIP, containerStatuses with containerID, state, started). */
export interface ProbeStatusProvider {
  getPodStatus(podUid: string): V1PodStatus | undefined;
}

/** Where readiness/startup flips go (the status manager recomputes ContainersReady/Ready). */
export interface ProbeStatusSink {
  setContainerReadiness(podUid: string, containerName: string, ready: boolean): void;
  setContainerStartup(podUid: string, containerName: string, started: boolean): void;
}

/** The bus (EventBus satisfies it once ProbeBusEvent is in the NodeletEvent union). */
export interface ProbeBusPublisher {
  publish(e: ProbeBusEventInput): unknown;
}

export type AddPodResult = { ok: true; workers: number } | { ok: false; reason: 'FailedValidation'; message: string; errors: string[] };

export interface ProbeManager {
  /** Starts a worker per (container, probe) for the pod's containers and sidecar init containers. */
  addPod(pod: V1Pod): AddPodResult;
  /** Stops the pod's liveness and startup workers (the pod is terminating). */
  stopLivenessAndStartup(pod: V1Pod): void;
  removePod(pod: V1Pod): void;
  /** Stops workers of every pod whose UID is not desired. */
  cleanupPods(desiredUids: ReadonlySet<string>): void;
  /** Sets `started` and `ready` on the status's container statuses from the caches (mutates and returns it). */
  updatePodStatus(podUid: string, status: V1PodStatus): V1PodStatus;
  start(): void;
  stop(): void;
  readonly liveness: ResultsManager;
  readonly readiness: ResultsManager;
  readonly startup: ResultsManager;
  /** Number of live workers (for tests and the console). */
  workerCount(): number;
}

/** One worker as the console shows it (probes.list). */
export interface ProbeWorkerInfo {
  pod: { namespace: string; name: string; uid: string };
  container: string;
  probeType: ProbeType;
  handler: 'exec' | 'httpGet' | 'tcpSocket' | 'grpc';
  /** Where it points: the exec command, `<scheme>://<host>:<port><path>`, `<host>:<port>` ('' host = the pod IP). */
  target: string;
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
  containerId: string;
  /** The cached (threshold-counted) result that drives ready/started/kills. */
  effective?: ProbeResult;
  /** The last run's own result and how many runs in a row gave it. */
  lastResult?: ProbeResult;
  consecutive: number;
  onHold: boolean;
  lastRun?: { time: string; result: ProbeResult; output: string; latencyMs: number };
}

/** The kubelet's default probe values. */
export const PROBE_DEFAULTS = {
  initialDelaySeconds: 0,
  periodSeconds: 10,
  timeoutSeconds: 1,
  successThreshold: 1,
  failureThreshold: 3,
} as const;

/** How the kubelet spells a probe type in events and logs. */
export function probeTypeTitle(t: ProbeType): 'Liveness' | 'Readiness' | 'Startup' {
  switch (t) {
    case 'liveness':
      return 'Liveness';
    case 'readiness':
      return 'Readiness';
    case 'startup':
      return 'Startup';
  }
}

/** Strips the `<type>://` prefix of a status containerID. */
export function runtimeContainerId(statusId: string | undefined): string {
  if (!statusId) return '';
  const i = statusId.indexOf('://');
  return i >= 0 ? statusId.slice(i + 3) : statusId;
}
