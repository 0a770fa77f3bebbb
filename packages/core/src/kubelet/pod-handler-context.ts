/**
 * What the kubelet gives its pod handlers: its managers, admission, the pod workers, the node's facts. The pod
 * workers' side of the handlers is PodSync (pod-sync.ts), the sync loop's PodHandlers (pod-handlers.ts).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { PodStatusCache, RuntimePod } from '../container/types.ts';
import type { PodManager } from '../pod/types.ts';
import type { StatusManager } from '../status/types.ts';
import type { AdmitNode, Admitter } from '../lifecycle/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { EventBus } from '../events/types.ts';
import type { KubeRuntimeManager } from '../kuberuntime/runtime-manager.ts';
import type { PodWorkers } from './pod-workers.ts';
import type { ReasonCache } from './reason-cache.ts';
import type { ProbeManager } from '../prober/types.ts';
import type { PodSyncHandler } from './active-deadline.ts';

/** What the pod handlers need from the probe manager. */
export type PodProbes = Pick<ProbeManager, 'addPod' | 'removePod' | 'stopLivenessAndStartup' | 'cleanupPods' | 'updatePodStatus'>;

export interface PodHandlerContext {
  clock: Clock;
  logger: Logger;
  runtime: KubeRuntimeManager;
  cache: PodStatusCache;
  podManager: PodManager;
  statusManager: StatusManager;
  recorder: EventRecorder;
  /** Where admission verdicts and sync steps are published (`decision` events: the flight recorder keeps them). */
  bus?: EventBus;
  reasons: ReasonCache;
  admit: Admitter;
  node: () => AdmitNode;
  workers: () => PodWorkers;
  /** The kubelet's active pods (active-pods.ts): admission counts a new pod against them. */
  activePods: () => V1Pod[];
  sourcesReady: () => boolean;
  /** Retry delay after a failed sync without a known back-off. */
  errorBackOffMs: number;
  /** The node's IPs (hostIP of every pod; pod IPs of hostNetwork pods without runtime IPs). */
  hostIPs: string[];
  stopped: () => boolean;
  /** Probe workers per pod; ready/started come from their results. */
  probes?: PodProbes;
  /** Pods they want synced are synced on each tick; their eviction verdicts fail the pod (active deadline). */
  podSyncHandlers?: PodSyncHandler[];
  /** Pod cgroups: ensured before each runtime sync (RunPodSandbox), orphans removed in housekeeping. */
  podCgroups?: { ensurePod(pod: V1Pod): Promise<void>; cleanup(activeUids: Iterable<string>): Promise<void> };
  /** The running pods for housekeeping, listed now (through the kubelet's runtime cache, which others read); default: the runtime's list. */
  runningPods?: () => Promise<RuntimePod[]>;
}

/** A pod's UID ('' when it has none). */
export const uidOf = (p: V1Pod): string => p.metadata?.uid ?? '';
