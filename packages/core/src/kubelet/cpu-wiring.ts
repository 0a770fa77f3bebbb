/**
 * The kubelet's CPU manager on a real host (deps.hostFs), always present as the kubelet's is (policy none by
 * default, which still keeps `<root-dir>/cpu_manager_state`): its policy from config.cpuManager and the
 * machine topology, its admit handler placed before the device manager's and the predicates (until a topology
 * manager calls it as a hint provider), the internal container lifecycle (cpuset_cpus in the CRI config at
 * create, AddContainer before start) and UpdateContainerResources for the reconcile loop.
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { CpuManager, type CpuManagerMetrics } from '../cm/cpumanager/cpu-manager.ts';
import { DEFAULT_CPU_MANAGER_RECONCILE_PERIOD_MS, newCpuPolicy } from '../cm/cpumanager/cpu-manager-factory.ts';
import { readMachineInfo, type MachineInfo } from '../cm/topology/machine-info.ts';
import { CPUSet } from '../cm/topology/cpuset.ts';
import type { Store } from '../cm/topologymanager/types.ts';
import type { CriClient } from '../cri/types.ts';
import type { InternalContainerLifecycle } from '../kuberuntime/start-container.ts';
import type { PodAdmitHandler } from '../lifecycle/types.ts';
import { parseCpuMilli } from '../util/quantity.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

export interface CpuWiringParts {
  cri: Pick<CriClient, 'updateContainerResources'>;
  activePods: () => V1Pod[];
  sourcesReady: () => boolean;
  podStatus: (uid: string) => V1PodStatus | undefined;
  /** The topology manager's store, once there is one. */
  affinity?: Store;
  /** kubelet_cpu_manager_pinning_requests_total / _errors_total. */
  metrics?: CpuManagerMetrics;
}

/** The machine topology (deps.machineInfo, else sysfs), read once. */
export function machineInfoOf(deps: KubeletDeps): MachineInfo {
  return deps.machineInfo ? deps.machineInfo() : readMachineInfo();
}

/** NewManager; throws the kubelet's error (a bad policy stops the kubelet before it starts). */
export function buildCpuManager(deps: KubeletDeps, config: KubeletConfig, parts: CpuWiringParts): CpuManager | undefined {
  if (!deps.hostFs) return undefined;
  const s = config.cpuManager ?? { policy: 'none' };
  const reserved = [config.stats?.kubeReserved?.['cpu'], config.stats?.systemReserved?.['cpu']].reduce((sum: number, q) => sum + (q === undefined ? 0 : parseCpuMilli(q)), 0);
  const machine = machineInfoOf(deps);
  const policy = newCpuPolicy({ policy: s.policy, ...(s.policyOptions ? { policyOptions: s.policyOptions } : {}), ...(s.reservedSystemCPUs ? { reservedSystemCPUs: s.reservedSystemCPUs } : {}), reservedCpuMilli: reserved }, machine, parts.affinity);
  return new CpuManager({
    policy,
    onlineCPUs: CPUSet.from(machine.topology.flatMap((n) => n.cpus.list())),
    clock: deps.clock,
    logger: deps.logger.child('cpumanager'),
    stateDir: config.rootDir,
    reconcilePeriodMs: s.reconcilePeriodMs ?? DEFAULT_CPU_MANAGER_RECONCILE_PERIOD_MS,
    activePods: parts.activePods,
    sourcesReady: parts.sourcesReady,
    podStatus: parts.podStatus,
    ...(parts.metrics ? { metrics: parts.metrics } : {}),
    updateContainerCpuset: async (containerId, cpus) => void (await parts.cri.updateContainerResources({ containerId, linux: { cpusetCpus: cpus.toString() } })),
  });
}

/** PreCreateContainer puts the container's CPUs in cpuset_cpus; PreStartContainer is AddContainer. */
export function cpuLifecycle(cpu: CpuManager): InternalContainerLifecycle {
  return {
    preCreateContainer(pod, c, config) {
      const cpus = cpu.cpusetForContainer(pod.metadata?.uid ?? '', c.name);
      if (!cpus) return;
      config.linux = { ...(config.linux ?? {}), resources: { ...(config.linux?.resources ?? {}), cpusetCpus: cpus } };
    },
    preStartContainer(pod, c, containerId) {
      cpu.addContainer(pod, c, containerId);
    },
  };
}

/** The handlers with the CPU manager's first among the resource allocators (before devices and predicates). */
export function withCpuAdmission(handlers: readonly PodAdmitHandler[], cpu: CpuManager | undefined): PodAdmitHandler[] {
  if (!cpu) return [...handlers];
  const at = ['devicemanager', 'predicate'].map((name) => handlers.findIndex((h) => h.name === name)).find((i) => i >= 0) ?? handlers.length;
  const out = [...handlers];
  out.splice(at, 0, cpu.admitHandler);
  return out;
}
