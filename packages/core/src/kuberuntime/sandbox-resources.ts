/**
 * The sandbox's resources in PodSandboxConfig.linux (kuberuntime_sandbox_linux.go applySandboxResources):
 * `resources` from the pod's requests and limits without its overhead, `overhead` from spec.overhead treated as
 * guaranteed (requests = limits), both through calculateLinuxResources: cpu shares from the cpu request
 * (MilliCPUToShares, min 2), CFS quota from the cpu limit (0 without one) with the 100 ms period, memory limit
 * when there is one. The pod-level cgroup itself (with the overhead) is the container manager's (cm/).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { LinuxContainerResources } from '../cri/types.ts';
import { amount, podAmounts } from '../cm/pod-resources.ts';
import { QUOTA_PERIOD, milliCpuToShares } from '../cm/cgroup-name.ts';

/** kuberuntime's milliCPUToQuota: 0 for no limit, else at least 1000 µs. */
function quota(milliCpu: number, period: number): number {
  if (milliCpu <= 0) return 0;
  return Math.max(1000, Math.floor((milliCpu * period) / 1000));
}

export function calculateLinuxResources(cpuRequestMilli: number, cpuLimitMilli: number, memoryLimit: number): LinuxContainerResources {
  return {
    cpuShares: milliCpuToShares(cpuRequestMilli > 0 ? cpuRequestMilli : cpuLimitMilli),
    cpuPeriod: QUOTA_PERIOD,
    cpuQuota: quota(cpuLimitMilli, QUOTA_PERIOD),
    ...(memoryLimit > 0 ? { memoryLimitInBytes: memoryLimit } : {}),
  };
}

export function sandboxResources(pod: V1Pod): { resources: LinuxContainerResources; overhead: LinuxContainerResources } {
  const req = podAmounts(pod, 'requests', { excludeOverhead: true });
  const lim = podAmounts(pod, 'limits', { excludeOverhead: true });
  const o = pod.spec?.overhead;
  const cpu = amount(o?.cpu, true);
  return {
    resources: calculateLinuxResources(req.cpuMilli, lim.cpuMilli, lim.memory),
    overhead: o ? calculateLinuxResources(cpu, cpu, amount(o.memory, false)) : {},
  };
}
