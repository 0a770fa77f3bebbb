/**
 * The kubelet's v1 PodResourcesLister (pkg/kubelet/apis/podresources/server_v1.go, v1.28), transport-free:
 * List (every pod of the pod manager, the app containers' devices, exclusive CPUs and memory; allocations of
 * pods no longer active are dropped first), GetAllocatableResources (GA in v1.28: always served) and Get
 * (the alpha KubeletPodResourcesGet gate, off by default as in v1.28). Errors carry the kubelet's text.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { AllocatableResources, PodResources, PodResourcesMetrics, PodResourcesProviders } from './types.ts';

const V1 = { server_api_version: 'v1' };

export interface ListerOptions {
  /** KubeletPodResourcesGet (v1.28: alpha, default false). */
  getEnabled?: boolean;
  metrics?: PodResourcesMetrics;
}

export class PodResourcesLister {
  constructor(
    private readonly providers: PodResourcesProviders,
    private readonly opts: ListerOptions = {},
  ) {}

  list(): PodResources[] {
    this.opts.metrics?.podResourcesEndpointRequestsTotal.inc(V1);
    this.opts.metrics?.podResourcesEndpointRequestsList.inc(V1);
    const pods = this.providers.pods.getPods();
    this.providers.devices.updateAllocatedDevices();
    return pods.map((p) => this.podResources(p));
  }

  getAllocatableResources(): AllocatableResources {
    this.opts.metrics?.podResourcesEndpointRequestsTotal.inc(V1);
    this.opts.metrics?.podResourcesEndpointRequestsGetAllocatable.inc(V1);
    return {
      devices: this.providers.devices.getAllocatableDevices(),
      cpuIds: this.providers.cpus.getAllocatableCPUs(),
      memory: this.providers.memory.getAllocatableMemory(),
    };
  }

  get(podName: string, podNamespace: string): PodResources {
    this.opts.metrics?.podResourcesEndpointRequestsTotal.inc(V1);
    this.opts.metrics?.podResourcesEndpointRequestsGet.inc(V1);
    if (!this.opts.getEnabled) {
      this.opts.metrics?.podResourcesEndpointErrorsGet.inc(V1);
      throw new Error('PodResources API Get method disabled');
    }
    const pod = this.providers.pods.getPodByName(podNamespace, podName);
    if (!pod) {
      this.opts.metrics?.podResourcesEndpointErrorsGet.inc(V1);
      throw new Error(`pod ${podName} in namespace ${podNamespace} not found`);
    }
    return this.podResources(pod);
  }

  private podResources(pod: V1Pod): PodResources {
    const uid = pod.metadata?.uid ?? '';
    return {
      name: pod.metadata?.name ?? '',
      namespace: pod.metadata?.namespace ?? '',
      containers: (pod.spec?.containers ?? []).map((c) => ({
        name: c.name,
        devices: this.providers.devices.getDevices(uid, c.name),
        cpuIds: this.providers.cpus.getCPUs(uid, c.name),
        memory: this.providers.memory.getMemory(uid, c.name),
        dynamicResources: [],
      })),
    };
  }
}
