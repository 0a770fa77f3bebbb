/**
 * The typed event bus: everything the agent streams (tRPC subscription `lifecycle.onEvent`, socket.io event
 * `nodelet:event`) is one of these. Each event carries a monotonically increasing `seq` and an ISO `time`.
 * Keep the union discriminated on `type`; consumers switch exhaustively.
 */
import type { V1PodStatus } from '@kubernetes/client-node';
import type { ProbeResult, ProbeType } from '../prober/result-types.ts';
import type { ShutdownProgress } from '../kubelet/node-shutdown-types.ts';

export type PlegEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'PodSync' | 'ContainerChanged';

export interface PodRef {
  namespace: string;
  name: string;
  uid: string;
}

export interface ContainerBrief {
  name: string;
  /** 'waiting' | 'running' | 'terminated' (the V1ContainerState key that is set). */
  state: 'waiting' | 'running' | 'terminated';
  /** Reason for waiting/terminated (CrashLoopBackOff, ErrImagePull, Completed, Error, OOMKilled...). */
  reason?: string;
  ready: boolean;
  restartCount: number;
  init?: boolean;
}

/** A PLEG event, as the kubelet's PodLifecycleEvent, enriched with names. */
export interface PlegBusEvent {
  type: 'pleg';
  seq: number;
  time: string;
  pod: PodRef;
  pleg: PlegEventType;
  containerId: string;
  containerName?: string;
}

/** The pod's status changed (the status manager saw a new version). */
export interface PodStatusBusEvent {
  type: 'podStatus';
  seq: number;
  time: string;
  pod: PodRef;
  phase: string;
  ready: boolean;
  containers: ContainerBrief[];
  status: V1PodStatus;
}

/** The desired pod set changed (a source added, updated or removed a pod). */
export interface PodConfigBusEvent {
  type: 'podConfig';
  seq: number;
  time: string;
  pod: PodRef;
  op: 'ADD' | 'UPDATE' | 'DELETE' | 'REMOVE';
  source: string;
}

/** A Kubernetes Event (core/v1) as the kubelet records it. */
export interface K8sBusEvent {
  type: 'k8sEvent';
  seq: number;
  time: string;
  /** 'Normal' | 'Warning' */
  eventType: 'Normal' | 'Warning';
  reason: string;
  message: string;
  involvedObject: { kind: string; namespace?: string; name: string; uid?: string; fieldPath?: string };
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
}

/** Runtime readiness changed (runtime absent, reconnected, not ready). */
export interface RuntimeBusEvent {
  type: 'runtime';
  seq: number;
  time: string;
  ready: boolean;
  message: string;
}

/** Node pressure conditions changed (eviction manager); each signal's observation at that pass. */
export interface PressureBusEvent {
  type: 'pressure';
  seq: number;
  time: string;
  /** MemoryPressure / DiskPressure / PIDPressure currently True. */
  conditions: string[];
  signals: Array<{ signal: string; available?: number; capacity?: number; met: boolean }>;
}

/** An image or container GC run finished (periodic runs only when they removed something). */
export interface GcBusEvent {
  type: 'gc';
  seq: number;
  time: string;
  kind: 'images' | 'containers';
  /** 'periodic' | 'manual' | 'eviction'. */
  trigger: string;
  removed: string[];
  freedBytes: number;
  errors: string[];
}

/**
 * Device plugins (the device manager): a plugin registered, was refused or went away, its devices changed (the
 * healthy count after a ListAndWatch update), or a container's devices could not be allocated (admission or the
 * plugin's Allocate at the container's start).
 */
export interface DeviceBusEvent {
  type: 'device';
  seq: number;
  time: string;
  resource: string;
  change: 'registered' | 'registrationFailed' | 'disconnected' | 'devices' | 'allocationFailed';
  message: string;
  /** The resource's devices after the change (registered, disconnected, devices). */
  healthy?: number;
  total?: number;
  /** allocationFailed: the pod and container. */
  pod?: PodRef;
  container?: string;
}

/** A probe run: published on every change of a worker's run result and, when asked, on every run (rate-limited). */
export interface ProbeBusEvent {
  type: 'probe';
  seq: number;
  time: string;
  pod: PodRef;
  container: string;
  probeType: ProbeType;
  /** This run's result. */
  result: ProbeResult;
  /** The previous run's result (absent on the first run of a container). */
  previous?: ProbeResult;
  /** Probe output or failure reason (exec output, HTTP failure text, connection error ...). */
  output?: string;
  latencyMs: number;
  /** The worker's cached result after threshold counting (what drives ready / kills). */
  effective?: ProbeResult;
}

/**
 * A lifecycle decision no other event carries: a pod admitted or refused (the admit handlers' reason), and the
 * steps a pod sync took (computePodActions → syncPod, as the kubelet's SyncResult: a failed step has its reason).
 */
export interface DecisionBusEvent {
  type: 'decision';
  seq: number;
  time: string;
  pod: PodRef;
  decision: 'admit' | 'refuse' | 'sync';
  reason?: string;
  message?: string;
  /** sync: each step taken (CreatePodSandbox, StartContainer, KillContainer ...) with its target container. */
  steps?: Array<{ action: string; target: string; error?: string; message?: string }>;
}

/** The graceful node shutdown's progress changed (started, a group or pod moved on, done, cancelled): all of it. */
export interface ShutdownBusEvent {
  type: 'shutdown';
  seq: number;
  time: string;
  progress: ShutdownProgress;
}

export type NodeletEvent =
  | PlegBusEvent
  | DeviceBusEvent
  | DecisionBusEvent
  | PodStatusBusEvent
  | PodConfigBusEvent
  | K8sBusEvent
  | RuntimeBusEvent
  | ProbeBusEvent
  | PressureBusEvent
  | GcBusEvent
  | ShutdownBusEvent;
export type NodeletEventType = NodeletEvent['type'];

/** An event before the bus stamps seq and time. */
export type NodeletEventInput = NodeletEvent extends infer E
  ? E extends NodeletEvent
    ? Omit<E, 'seq' | 'time'> & { time?: string }
    : never
  : never;

export interface EventFilter {
  namespace?: string;
  pod?: string;
  types?: NodeletEventType[];
  /** Only events with seq greater than this. */
  afterSeq?: number;
}

export interface EventBus {
  publish(e: NodeletEventInput): NodeletEvent;
  /** Returns an unsubscribe function. Listeners must not throw; a throwing listener is removed. */
  subscribe(listener: (e: NodeletEvent) => void): () => void;
  /** Most recent events, oldest first, at most `limit` (default 200) after filtering. */
  recent(filter?: EventFilter, limit?: number): NodeletEvent[];
}

export function eventMatches(e: NodeletEvent, f: EventFilter | undefined): boolean {
  if (!f) return true;
  if (f.afterSeq !== undefined && e.seq <= f.afterSeq) return false;
  if (f.types && f.types.length > 0 && !f.types.includes(e.type)) return false;
  const ref = eventPodRef(e);
  if (f.namespace && ref?.namespace !== f.namespace) return false;
  if (f.pod && ref?.name !== f.pod) return false;
  return true;
}

export function eventPodRef(e: NodeletEvent): { namespace?: string; name?: string } | undefined {
  switch (e.type) {
    case 'pleg':
    case 'podStatus':
    case 'podConfig':
    case 'probe':
    case 'decision':
      return e.pod;
    case 'device':
      return e.pod;
    case 'k8sEvent':
      return e.involvedObject.kind === 'Pod' ? e.involvedObject : undefined;
    case 'runtime':
    case 'pressure':
    case 'gc':
    case 'shutdown':
      return undefined;
  }
}
