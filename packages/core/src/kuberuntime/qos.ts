/** QoS class and the resource numbers derived from it (cgroup parent, oom_score_adj, cpu shares/quota). */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { parseBytes, parseCpuMilli } from '../util/quantity.ts';
import type { LinuxContainerResources } from '../cri/types.ts';

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

function quantities(m: Record<string, string> | undefined): Record<string, string> {
  return (m ?? {}) as Record<string, string>;
}

export function qosClassOf(pod: V1Pod): QosClass {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of all) {
    const req = quantities(c.resources?.requests as Record<string, string> | undefined);
    const lim = quantities(c.resources?.limits as Record<string, string> | undefined);
    if (Object.keys(req).length > 0 || Object.keys(lim).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || q === undefined || String(q) !== String(l)) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export function defaultCgroupParent(pod: V1Pod): string {
  const uid = pod.metadata?.uid ?? '';
  switch (qosClassOf(pod)) {
    case 'Guaranteed':
      return `/kubepods/pod${uid}`;
    case 'Burstable':
      return `/kubepods/burstable/pod${uid}`;
    case 'BestEffort':
      return `/kubepods/besteffort/pod${uid}`;
  }
}

const CPU_PERIOD = 100_000;

/** Linux resources of one container from requests/limits (shares, quota, memory limit, oom_score_adj). */
export function containerResources(pod: V1Pod, c: V1Container, memoryCapacity = 0): LinuxContainerResources {
  const req = quantities(c.resources?.requests as Record<string, string> | undefined);
  const lim = quantities(c.resources?.limits as Record<string, string> | undefined);
  const cpuReq = req.cpu ?? lim.cpu;
  const out: LinuxContainerResources = {
    cpuShares: cpuReq !== undefined ? Math.max(2, Math.floor((parseCpuMilli(cpuReq) * 1024) / 1000)) : 2,
    oomScoreAdj: oomScoreAdj(pod, c, memoryCapacity),
  };
  if (lim.cpu !== undefined) {
    out.cpuPeriod = CPU_PERIOD;
    out.cpuQuota = Math.max(1000, Math.floor((parseCpuMilli(lim.cpu) * CPU_PERIOD) / 1000));
  }
  if (lim.memory !== undefined) out.memoryLimitInBytes = parseBytes(lim.memory);
  return out;
}

function oomScoreAdj(pod: V1Pod, c: V1Container, memoryCapacity: number): number {
  switch (qosClassOf(pod)) {
    case 'Guaranteed':
      return -997;
    case 'BestEffort':
      return 1000;
    case 'Burstable': {
      const memReq = (c.resources?.requests as Record<string, string> | undefined)?.memory;
      if (!memReq || memoryCapacity <= 0) return 999;
      const adj = 1000 - Math.floor((1000 * parseBytes(memReq)) / memoryCapacity);
      return Math.min(999, Math.max(2, adj));
    }
  }
}
