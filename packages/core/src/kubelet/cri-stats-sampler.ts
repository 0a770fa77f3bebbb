/**
 * The fallback when cgroups give nothing (not root, runtime not managing cgroups): container and pod cpu and
 * memory from the runtime's CRI stats (the embedded runtime samples /proc for them). Composed after the cgroup
 * sampler, so on a root node it costs nothing.
 */
import { parsePodCgroup } from '../cm/types.ts';
import type { CriClient } from '../cri/types.ts';
import type { Sampler } from '../stats/sampler.ts';
import type { ContainerSample } from '../stats/types.ts';
import type { ContainerStats__Output } from '../../../../proto/gen/runtime/v1/ContainerStats.ts';

const val = (v: { value: number } | null | undefined) => v?.value ?? 0;

/** Sums CRI container stats into one sample (one container, or every container of a pod). */
export function sampleFromCri(stats: ContainerStats__Output[], time: number): ContainerSample | undefined {
  const withData = stats.filter((s) => s.cpu || s.memory);
  if (withData.length === 0) return undefined;
  const sum = (pick: (s: ContainerStats__Output) => number) => withData.reduce((a, s) => a + pick(s), 0);
  return {
    time,
    cpu: { usageNanoseconds: sum((s) => val(s.cpu?.usageCoreNanoSeconds)), userNanoseconds: 0, systemNanoseconds: 0, periods: 0, throttledPeriods: 0, throttledNanoseconds: 0 },
    memory: {
      usageBytes: sum((s) => val(s.memory?.usageBytes)),
      workingSetBytes: sum((s) => val(s.memory?.workingSetBytes)),
      rssBytes: sum((s) => val(s.memory?.rssBytes)),
      cacheBytes: 0, mappedFileBytes: 0, swapBytes: 0, maxUsageBytes: 0, failcnt: 0, oomEvents: 0, oomKills: 0,
      pageFaults: sum((s) => val(s.memory?.pageFaults)),
      majorPageFaults: sum((s) => val(s.memory?.majorPageFaults)),
      limitBytes: -1,
    },
  };
}

export function withCriFallback(base: Sampler, cri: CriClient, now: () => number): Sampler {
  return async (target) => {
    const s = await base(target);
    if (s || target.cgroup === '/') return s;
    try {
      const l = target.labels ?? {};
      if (l.container && l.name) {
        const r = await cri.containerStats({ containerId: l.name });
        return r.stats ? sampleFromCri([r.stats], now()) : undefined;
      }
      const ref = parsePodCgroup(target.cgroup);
      if (!ref || ref.containerId !== undefined) return undefined;
      const r = await cri.listContainerStats({ filter: { labelSelector: { 'io.kubernetes.pod.uid': ref.uid } } });
      return sampleFromCri(r.stats, now());
    } catch {
      return undefined;
    }
  };
}
