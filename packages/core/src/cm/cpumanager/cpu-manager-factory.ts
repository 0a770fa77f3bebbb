/**
 * NewManager's policy choice (kubelet cpumanager/cpu_manager.go v1.28) and the reserved CPUs it starts from
 * (cmd/kubelet getReservedCPUs): `none`, or `static` over the discovered topology with
 * ceil(kubeReserved.cpu + systemReserved.cpu) reserved CPUs — `reservedSystemCPUs` names them and then stands
 * for the system reservation (its size), as the kubelet overrides systemReserved.cpu with it. Errors read as
 * the kubelet's, which refuses to start on them.
 */
import { CPUSet } from '../topology/cpuset.ts';
import { discoverTopology } from '../topology/cpu-topology.ts';
import type { MachineInfo } from '../topology/machine-info.ts';
import type { Store } from '../topologymanager/types.ts';
import { NonePolicy, POLICY_NONE, POLICY_STATIC, type CpuPolicy } from './policy.ts';
import { StaticPolicy } from './policy-static.ts';

/** KubeletConfig.cpuManager: the kubelet's names. */
export interface CpuManagerSettings {
  /** cpuManagerPolicy: none (default) or static. */
  policy: string;
  /** cpuManagerPolicyOptions (static: full-pcpus-only). */
  policyOptions?: Record<string, string>;
  /** cpuManagerReconcilePeriod (default 10 s). */
  reconcilePeriodMs?: number;
  /** reservedSystemCPUs: a CPU list ("0,2-3"). */
  reservedSystemCPUs?: string;
}

export const DEFAULT_CPU_MANAGER_RECONCILE_PERIOD_MS = 10_000;

export interface CpuManagerConfig {
  /** cpuManagerPolicy (default none). */
  policy: string;
  /** cpuManagerPolicyOptions. */
  policyOptions?: Record<string, string>;
  /** reservedSystemCPUs / --reserved-cpus: a CPU list ("0,2-3"); '' or absent = none named. */
  reservedSystemCPUs?: string;
  /** kubeReserved.cpu + systemReserved.cpu in millicores (ignored when reservedSystemCPUs names CPUs). */
  reservedCpuMilli: number;
}

/** getReservedCPUs: the named CPUs, which must all be online. */
export function reservedCPUsOf(machine: MachineInfo, cpus: string | undefined): CPUSet {
  if (!cpus) return CPUSet.of();
  let topoCPUs: CPUSet;
  try {
    topoCPUs = discoverTopology(machine).cpuDetails.cpus();
  } catch (err) {
    throw new Error(`unable to discover CPU topology info: ${(err as Error).message}`);
  }
  let reserved: CPUSet;
  try {
    reserved = CPUSet.parse(cpus);
  } catch (err) {
    throw new Error(`unable to parse reserved-cpus list: ${(err as Error).message}`);
  }
  if (!reserved.isSubsetOf(topoCPUs)) throw new Error(`reserved-cpus: ${cpus} is not a subset of online-cpus: ${topoCPUs.toString()}`);
  return reserved;
}

/** The policy NewManager builds; `affinity` is the topology manager's store (hints for NUMA alignment). */
export function newCpuPolicy(config: CpuManagerConfig, machine: MachineInfo, affinity?: Store): CpuPolicy {
  switch (config.policy) {
    case POLICY_NONE:
      try {
        return new NonePolicy(config.policyOptions);
      } catch (err) {
        throw new Error(`new none policy error: ${(err as Error).message}`);
      }
    case POLICY_STATIC: {
      const topo = discoverTopology(machine);
      const specific = reservedCPUsOf(machine, config.reservedSystemCPUs);
      const reservedMilli = specific.size() > 0 ? specific.size() * 1000 : config.reservedCpuMilli;
      if (reservedMilli <= 0) {
        throw new Error('[cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero');
      }
      try {
        return new StaticPolicy(topo, Math.ceil(reservedMilli / 1000), specific, affinity, config.policyOptions);
      } catch (err) {
        throw new Error(`new static policy error: ${(err as Error).message}`);
      }
    }
    default:
      throw new Error(`unknown policy: "${config.policy}"`);
  }
}
