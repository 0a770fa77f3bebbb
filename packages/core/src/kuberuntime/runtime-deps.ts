/**
 * What the kuberuntime manager (runtime-manager.ts) is built with: the CRI client, image manager and event sink,
 * and the kubelet's managers it calls into (volumes, configMap / secret objects, probe results, devices, the CPU
 * manager's container lifecycle, RuntimeClass, pod DNS, termination message files, the evented PLEG's sandbox IPs).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { CriClient } from '../cri/types.ts';
import type { ResolverConfig } from './pod-dns.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { ImageManager } from '../images/types.ts';
import type { InternalContainerLifecycle } from './start-container.ts';
import type { ContainerDevices } from './device-options.ts';
import type { ContainerProbeResults, EventSink, RuntimeFs } from './types.ts';
import type { HookDeps } from '../lifecycle/hooks/types.ts';
import type { VolumeHost } from '../volume/types.ts';
import type { PodObjectSource } from '../podobjects/types.ts';
import type { TerminationMessageFs } from './termination-message.ts';
import type { NodeAllocatable } from '../volume/downward-api.ts';
import type { RuntimeHandlerResolver } from '../runtimeclass/runtime-class-manager.ts';

export interface KubeRuntimeDeps {
  cri: CriClient;
  clock: Clock;
  logger: Logger;
  images: ImageManager;
  events: EventSink;
  fs?: RuntimeFs;
  /** Lifecycle hooks (postStart after StartContainer, preStop before StopContainer); none run when absent. */
  hooks?: HookDeps;
  /** Volume manager: volumes set up before the sandbox / containers, CRI mounts (hostPath only when absent). */
  volumes?: VolumeHost;
  /** ConfigMap / Secret managers for env (every reference "not found" when absent). */
  objects?: PodObjectSource;
  /** The node's allocatable (downward API limits of containers that set none). */
  allocatable?: () => NodeAllocatable;
  /** Liveness / startup results: a container that failed them is killed and restarted (computePodActions). */
  probeResults?: ContainerProbeResults;
  /** Termination message files (created under config.rootDir, read once a container exited); none when absent. */
  messages?: TerminationMessageFs;
  /** runtimeClassName → CRI runtime handler (RuntimeClass manager); every pod gets the default "" when absent. */
  runtimeClasses?: RuntimeHandlerResolver;
  /** The device manager's allocations for a container about to be created; none when absent. */
  devices?: ContainerDevices;
  /** The kubelet's internal container lifecycle (CPU manager); none when absent. */
  lifecycle?: InternalContainerLifecycle;
  /** The pod's DNS (GetPodDNS, pod-dns.ts); rejects when the host's resolv.conf cannot be read. Only spec.dnsConfig when absent. */
  podDns?: (pod: V1Pod) => Promise<ResolverConfig>;
  /**
   * A ready sandbox's IPs as the runtime's own event about it showed them (the evented PLEG's cache: CRI events carry
   * the sandbox's PodSandboxStatus), undefined while none has come; SyncPod then asks PodSandboxStatus.
   */
  shownSandboxIps?: (podUid: string, podSandboxId: string) => string[] | undefined;
}
