/** The kubelet's node shutdown manager wired to the kubelet's parts (NewManager: a stub, here none, when off). */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventRecorder } from '../events/recorder.ts';
import type { EventBus } from '../events/types.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';
import { NodeShutdownManager } from './node-shutdown.ts';
import { fileShutdownStateStore } from './node-shutdown-state.ts';
import type { KubeletMetrics } from '../metrics/kubelet-metrics.ts';
import type { PodWorkers } from './pod-workers.ts';

/** What the kubelet lends the manager: the pod workers kill, the active pods, the node status sync. */
export interface NodeShutdownParts {
  recorder: Pick<EventRecorder, 'event'>;
  activePods: () => V1Pod[];
  workers: () => Pick<PodWorkers, 'updatePod' | 'waitIdle'>;
  syncNodeStatus: () => void;
  /** The bus the progress goes to (`shutdown` events). */
  bus?: EventBus;
  /** kubelet_graceful_shutdown_{start,end}_time_seconds (with the state file, on a real host). */
  metrics?: KubeletMetrics | undefined;
}

/** The manager when groups are configured (NewManager's stub otherwise: undefined). */
export function buildNodeShutdown(deps: KubeletDeps, config: KubeletConfig, k: NodeShutdownParts): NodeShutdownManager | undefined {
  const groups = config.shutdownGracePeriodByPodPriority ?? [];
  if (groups.length === 0) return undefined;
  return new NodeShutdownManager(
    {
      clock: deps.clock,
      logger: deps.logger.child('nodeshutdown'),
      recorder: k.recorder,
      nodeName: config.nodeName,
      activePods: k.activePods,
      killPod: (pod, gracePeriodOverride, podStatusFunc) => {
        const workers = k.workers();
        workers.updatePod({ updateType: 'kill', pod, gracePeriodOverride, killPodOptions: { podStatusFunc } });
        return workers.waitIdle(pod.metadata?.uid ?? '');
      },
      syncNodeStatus: k.syncNodeStatus,
      ...(k.bus ? { bus: k.bus } : {}),
      ...(deps.shutdownInhibitor ? { inhibitor: deps.shutdownInhibitor } : {}),
      ...(k.metrics && deps.hostFs
        ? { state: { store: fileShutdownStateStore(config.rootDir), metrics: { startTime: k.metrics.gracefulShutdownStartTime, endTime: k.metrics.gracefulShutdownEndTime } } }
        : {}),
    },
    groups,
  );
}
