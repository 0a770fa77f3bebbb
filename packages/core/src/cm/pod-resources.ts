/**
 * A pod cgroup's resources from its requests and limits, as upstream ResourceConfigForPod:
 * shares from cpu requests (millicores × 1024 / 1000, min 2); CFS quota from cpu limits (period 100 ms) when
 * every container declares one; memory limit = sum of limits when every container declares one;
 * Guaranteed gets all three, Burstable what is declared, BestEffort only the minimum shares.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { getPodQOS } from '../api/qos.ts';
import { tryParseQuantity } from '../util/quantity.ts';
import { MIN_SHARES, QUOTA_PERIOD, milliCpuToQuota, milliCpuToShares } from './cgroup-name.ts';
import type { ResourceConfig } from './types.ts';

export interface PodResourceOptions {
  /** cpuCFSQuota (default true); false = quota -1 (unlimited) everywhere. */
  enforceCpuLimits?: boolean;
  /** cpuCFSQuotaPeriod in µs (default 100000). */
  cpuPeriod?: number;
  /** podPidsLimit (default -1 = unset). */
  podPidsLimit?: number;
}

interface Amounts {
  cpuMilli: number;
  memory: number;
}

/** A quantity in millicores (cpu) or base units, rounded up; 0 when absent, invalid or not positive. */
export function amount(q: string | undefined, cpu: boolean): number {
  if (q === undefined) return 0;
  const r = tryParseQuantity(q);
  if (!r.ok || r.value <= 0) return 0;
  return cpu ? Math.ceil(r.value * 1000 - 1e-9) : Math.ceil(r.value - 1e-9);
}

function containerAmounts(c: V1Container, kind: 'requests' | 'limits'): Amounts {
  const lim = c.resources?.limits ?? {};
  const src = kind === 'limits' ? lim : { ...lim, ...(c.resources?.requests ?? {}) };
  return { cpuMilli: amount(src.cpu, true), memory: amount(src.memory, false) };
}

/**
 * Sum of app containers and sidecars, max'd with each regular init container (+ sidecars before it), + overhead
 * (unless excludeOverhead, as resourcehelper's PodResourcesOptions.ExcludeOverhead).
 */
export function podAmounts(pod: V1Pod, kind: 'requests' | 'limits', opts: { excludeOverhead?: boolean } = {}): Amounts {
  const total: Amounts = { cpuMilli: 0, memory: 0 };
  const sidecars: Amounts = { cpuMilli: 0, memory: 0 };
  const initPeak: Amounts = { cpuMilli: 0, memory: 0 };
  for (const c of pod.spec?.initContainers ?? []) {
    const a = containerAmounts(c, kind);
    if (c.restartPolicy === 'Always') {
      sidecars.cpuMilli += a.cpuMilli;
      sidecars.memory += a.memory;
    }
    const base = c.restartPolicy === 'Always' ? { cpuMilli: 0, memory: 0 } : a;
    initPeak.cpuMilli = Math.max(initPeak.cpuMilli, sidecars.cpuMilli + base.cpuMilli);
    initPeak.memory = Math.max(initPeak.memory, sidecars.memory + base.memory);
  }
  for (const c of pod.spec?.containers ?? []) {
    const a = containerAmounts(c, kind);
    total.cpuMilli += a.cpuMilli;
    total.memory += a.memory;
  }
  total.cpuMilli = Math.max(total.cpuMilli + sidecars.cpuMilli, initPeak.cpuMilli);
  total.memory = Math.max(total.memory + sidecars.memory, initPeak.memory);
  if (opts.excludeOverhead) return total;
  const overhead = pod.spec?.overhead ?? {};
  total.cpuMilli += amount(overhead.cpu, true);
  total.memory += amount(overhead.memory, false);
  return total;
}

function allDeclare(pod: V1Pod, res: 'cpu' | 'memory'): boolean {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return all.every((c) => amount(c.resources?.limits?.[res], res === 'cpu') > 0);
}

export function resourceConfigForPod(pod: V1Pod, opts: PodResourceOptions = {}): ResourceConfig {
  const period = opts.cpuPeriod ?? QUOTA_PERIOD;
  const req = podAmounts(pod, 'requests');
  const lim = podAmounts(pod, 'limits');
  const shares = milliCpuToShares(req.cpuMilli);
  let quota = milliCpuToQuota(lim.cpuMilli, period);
  if (opts.enforceCpuLimits === false) quota = -1;
  const out: ResourceConfig = {};
  switch (getPodQOS(pod)) {
    case 'Guaranteed':
      Object.assign(out, { cpuShares: shares, cpuQuota: quota, cpuPeriod: period, memoryLimit: lim.memory });
      break;
    case 'Burstable':
      out.cpuShares = shares;
      if (allDeclare(pod, 'cpu')) Object.assign(out, { cpuQuota: quota, cpuPeriod: period });
      if (allDeclare(pod, 'memory')) out.memoryLimit = lim.memory;
      break;
    case 'BestEffort':
      out.cpuShares = MIN_SHARES;
      break;
  }
  if (opts.podPidsLimit !== undefined && opts.podPidsLimit > 0) out.pidsLimit = opts.podPidsLimit;
  return out;
}
