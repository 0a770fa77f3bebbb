/**
 * CPU manager settings, the kubelet's names: cpuManagerPolicy / --cpu-manager-policy (none | static),
 * cpuManagerPolicyOptions / --cpu-manager-policy-options, cpuManagerReconcilePeriod /
 * --cpu-manager-reconcile-period (10s), reservedSystemCPUs / --reserved-cpus, and the reservations the static
 * policy sizes its reserved CPUs from: kubeReserved / --kube-reserved and systemReserved / --system-reserved
 * (also subtracted from the node's allocatable). As the kubelet, reservedSystemCPUs replaces the cpu of both
 * reservations with systemReserved.cpu = the number of CPUs named.
 */
import { CPUSet, type CpuManagerSettings } from '@nodelet/core/cm';
import { tryParseQuantity } from '@nodelet/core/util';
import type { FlagSpec } from './flag-spec.ts';

export interface CpuManagerAgentConfig {
  cpuManagerPolicy: string;
  cpuManagerPolicyOptions?: Record<string, string>;
  cpuManagerReconcilePeriodMs: number;
  reservedSystemCPUs: string;
  kubeReserved?: Record<string, string>;
  systemReserved?: Record<string, string>;
}

export const CPU_MANAGER_DEFAULTS: CpuManagerAgentConfig = {
  cpuManagerPolicy: 'none',
  cpuManagerReconcilePeriodMs: 10_000,
  reservedSystemCPUs: '',
};

export const CPU_MANAGER_FLAG_SPECS: FlagSpec<keyof CpuManagerAgentConfig>[] = [
  { name: 'cpu-manager-policy', kind: 'string', key: 'cpuManagerPolicy', help: 'CPU manager policy: none (the OS scheduler decides) or static (exclusive CPUs for Guaranteed pods with integer CPU requests).', defaultText: 'none' },
  { name: 'cpu-manager-policy-options', kind: 'map=', key: 'cpuManagerPolicyOptions', help: 'Options of the static policy, e.g. full-pcpus-only=true.' },
  { name: 'cpu-manager-reconcile-period', kind: 'duration', key: 'cpuManagerReconcilePeriodMs', help: 'How often the CPU manager puts running containers on their CPUs.', defaultText: '10s' },
  { name: 'reserved-cpus', kind: 'string', key: 'reservedSystemCPUs', help: 'CPUs kept for the system and kubelet ("0,2-3"); overrides the cpu of --kube-reserved and --system-reserved.' },
  { name: 'kube-reserved', kind: 'map=', key: 'kubeReserved', help: 'Resources reserved for Kubernetes system daemons, e.g. cpu=200m,memory=500Mi.' },
  { name: 'system-reserved', kind: 'map=', key: 'systemReserved', help: 'Resources reserved for the OS system daemons, e.g. cpu=200m,memory=500Mi.' },
];

export const CPU_MANAGER_FILE_FIELDS = [
  { path: 'cpuManagerPolicy', key: 'cpuManagerPolicy', kind: 'string' },
  { path: 'cpuManagerPolicyOptions', key: 'cpuManagerPolicyOptions', kind: 'map' },
  { path: 'cpuManagerReconcilePeriod', key: 'cpuManagerReconcilePeriodMs', kind: 'duration' },
  { path: 'reservedSystemCPUs', key: 'reservedSystemCPUs', kind: 'string' },
  { path: 'kubeReserved', key: 'kubeReserved', kind: 'map' },
  { path: 'systemReserved', key: 'systemReserved', kind: 'map' },
] as const;

/** The kubelet's checks (validation.go and NewManager's policy names); the first problem, or undefined. */
export function validateCpuManager(c: CpuManagerAgentConfig): string | undefined {
  if (c.cpuManagerPolicy !== 'none' && c.cpuManagerPolicy !== 'static') return `unknown policy: "${c.cpuManagerPolicy}"`;
  if (c.cpuManagerReconcilePeriodMs <= 0) return 'cpuManagerReconcilePeriod must be greater than 0';
  if (c.reservedSystemCPUs) {
    try {
      CPUSet.parse(c.reservedSystemCPUs);
    } catch (err) {
      return `invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) ${c.reservedSystemCPUs}, error: ${(err as Error).message}`;
    }
  }
  for (const [field, list] of [['kubeReserved', c.kubeReserved], ['systemReserved', c.systemReserved]] as const) {
    for (const [name, q] of Object.entries(list ?? {})) {
      const r = tryParseQuantity(q);
      if (!r.ok) return `${field}: invalid quantity ${JSON.stringify(q)} for ${name}: ${r.reason}`;
      if (r.value < 0) return `${field}: ${name} must not be negative, got ${JSON.stringify(q)}`;
    }
  }
  return undefined;
}

/** KubeletConfig.cpuManager. */
export function coreCpuManager(c: CpuManagerAgentConfig): CpuManagerSettings {
  return {
    policy: c.cpuManagerPolicy,
    ...(c.cpuManagerPolicyOptions ? { policyOptions: c.cpuManagerPolicyOptions } : {}),
    reconcilePeriodMs: c.cpuManagerReconcilePeriodMs,
    ...(c.reservedSystemCPUs ? { reservedSystemCPUs: c.reservedSystemCPUs } : {}),
  };
}

/** kubeReserved / systemReserved for the container manager, with reservedSystemCPUs standing for their cpu. */
export function reservedResources(c: CpuManagerAgentConfig): { kubeReserved?: Record<string, string>; systemReserved?: Record<string, string> } {
  let kube = c.kubeReserved;
  let system = c.systemReserved;
  if (c.reservedSystemCPUs) {
    const n = CPUSet.parse(c.reservedSystemCPUs).size();
    if (n > 0) {
      kube = Object.fromEntries(Object.entries(kube ?? {}).filter(([k]) => k !== 'cpu'));
      system = { ...(system ?? {}), cpu: String(n) };
    }
  }
  return { ...(kube && Object.keys(kube).length > 0 ? { kubeReserved: kube } : {}), ...(system && Object.keys(system).length > 0 ? { systemReserved: system } : {}) };
}
