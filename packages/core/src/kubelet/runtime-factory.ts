/**
 * Builds the kubelet's CRI runtime manager over the (instrumented) CRI client: the image manager, lifecycle
 * hooks and the pod cgroup parent.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventRecorder } from '../events/recorder.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import { NodeCredentials } from '../credentialprovider/node-credentials.ts';
import { KubeRuntimeManager } from '../kuberuntime/runtime-manager.ts';
import { defaultCgroupParent } from '../kuberuntime/qos.ts';
import type { ContainerProbeResults, EventSink } from '../kuberuntime/types.ts';
import type { ContainerDevices } from '../kuberuntime/device-options.ts';
import type { InternalContainerLifecycle } from '../kuberuntime/start-container.ts';
import type { CriClient } from '../cri/types.ts';
import type { VolumeHost } from '../volume/types.ts';
import type { PodObjectSource } from '../podobjects/types.ts';
import type { NodeAllocatable } from '../volume/downward-api.ts';
import { createHookDeps } from '../lifecycle/hooks/deps.ts';
import { majorMinor } from './probes.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';
import { defaultHostIPs } from '../api/pod-ips.ts';
import { StaticRuntimeClasses, type RuntimeHandlerResolver } from '../runtimeclass/runtime-class-manager.ts';
import { podDnsReader } from './pod-dns-wiring.ts';

export interface RuntimeParts {
  recorder: EventRecorder;
  sink: EventSink;
  /** The CRI client the manager calls (instrumented when the kubelet has runtime metrics). */
  cri: CriClient;
  /** The pod's IP as the status manager knows it (for hooks). */
  podIP: (pod: V1Pod) => string;
  /** The container manager's cgroup parent, when there is one. */
  cgroupParent?: (pod: V1Pod) => string | undefined;
  /** Volume manager and configMap / secret managers (volume-wiring.ts). */
  volumes?: VolumeHost;
  objects?: PodObjectSource;
  /** The node's allocatable (downward API resourceFieldRefs of containers without limits). */
  allocatable?: () => NodeAllocatable;
  /** The prober's liveness / startup results (computePodActions restarts a container that failed them). */
  probeResults?: ContainerProbeResults;
  /** The API server's RuntimeClass objects (API-server mode); else config.runtimeClassHandlers. */
  runtimeClasses?: RuntimeHandlerResolver;
  /** The device manager's container allocations. */
  devices?: ContainerDevices;
  /** The kubelet's internal container lifecycle (CPU manager cpuset at create, AddContainer). */
  lifecycle?: InternalContainerLifecycle;
  /** A ready sandbox's IPs as the runtime's event showed them (KubeRuntimeDeps.shownSandboxIps). */
  shownSandboxIps?: (podUid: string, podSandboxId: string) => string[] | undefined;
}

export function buildRuntimeManager(deps: KubeletDeps, config: KubeletConfig, parts: RuntimeParts): KubeRuntimeManager {
  const { clock, logger } = deps;
  const { cri } = parts;
  // The node's registry credentials: config.json / .dockercfg under --root-dir first (SetPreferredDockercfgPath).
  // Read only with deps.readHostFile (the agent passes the real file system; tests their own or none).
  const read = deps.readHostFile;
  const node = read ? new NodeCredentials({ readFile: read, clock, logger: logger.child('credentialprovider') }, { rootDir: config.rootDir }) : undefined;
  const images = new KubeImageManager({ cri, clock, logger, events: parts.sink, ...(node ? { nodeKeyring: () => node.keyring() } : {}) }, {
    backOff: config.imagePullBackOff,
    serializeImagePulls: config.serializeImagePulls ?? !((config.maxParallelImagePulls ?? 0) >= 2),
    ...(config.maxParallelImagePulls !== undefined ? { maxParallelImagePulls: config.maxParallelImagePulls } : {}),
  });
  const perQos = config.cgroupsPerQOS ?? true;
  const root = (config.cgroupRoot ?? '/').replace(/\/$/, '');
  const hooks = createHookDeps({
    cri,
    clock,
    podIP: parts.podIP,
    recorder: parts.recorder,
    logger: logger.child('hooks'),
    kubeletVersion: majorMinor(config.kubeletVersion),
  });
  return new KubeRuntimeManager(
    { cri, clock, logger, images, events: parts.sink, fs: deps.fs, hooks, ...(deps.terminationMessages ? { messages: deps.terminationMessages } : {}), ...(parts.volumes ? { volumes: parts.volumes } : {}), ...(parts.objects ? { objects: parts.objects } : {}), ...(parts.probeResults ? { probeResults: parts.probeResults } : {}), ...(parts.allocatable ? { allocatable: parts.allocatable } : {}), ...(parts.devices ? { devices: parts.devices } : {}), ...(parts.lifecycle ? { lifecycle: parts.lifecycle } : {}), ...(parts.shownSandboxIps ? { shownSandboxIps: parts.shownSandboxIps } : {}), ...(config.dns ? { podDns: podDnsReader(deps, config, parts.recorder, nodeHostIPs(config)) } : {}), runtimeClasses: parts.runtimeClasses ?? new StaticRuntimeClasses(config.runtimeClassHandlers) },
    {
      podLogsDir: config.podLogsDir,
      rootDir: config.rootDir,
      nodeName: config.nodeName,
      hostIPs: nodeHostIPs(config),
      crashLoopBackOff: config.crashLoopBackOff,
      cgroupParent: (pod) => parts.cgroupParent?.(pod) ?? (perQos ? `${root}${defaultCgroupParent(pod)}` : root),
    },
  );
}

/** The node's IPs for pod status and the downward API: --node-ip when given, else the default InternalIP. */
export function nodeHostIPs(config: KubeletConfig): string[] {
  return config.apiServer?.nodeIP ? [config.apiServer.nodeIP] : defaultHostIPs();
}
