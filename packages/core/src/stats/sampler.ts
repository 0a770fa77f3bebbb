/** The real Sampler: one cgroup's cpu, memory and process counts, plus its network namespace for pods. */
import type { HostFs } from '../cm/types.ts';
import type { Clock } from '../util/clock.ts';
import { readNetDev } from './net-dev.ts';
import { memoryFromMeminfo, readMeminfo } from './proc-readers.ts';
import type { CgroupStatsReader, ContainerSample, TrackedContainer } from './types.ts';

/** Reads one sample; undefined when the cgroup is gone. */
export type Sampler = (target: TrackedContainer) => Promise<ContainerSample | undefined>;

export function createCgroupSampler(deps: { reader: CgroupStatsReader; fs: HostFs; clock: Clock; procRoot?: string }): Sampler {
  return async (target) => {
    const [cpu, cgMemory, processes] = await Promise.all([
      deps.reader.cpu(target.cgroup),
      deps.reader.memory(target.cgroup),
      // The node's process count comes from /proc/loadavg (Summary rlimit); walking the whole tree is not worth it.
      target.cgroup === '/' ? Promise.resolve(undefined) : deps.reader.processes(target.cgroup),
    ]);
    let memory = cgMemory;
    if (!memory && target.cgroup === '/') {
      const mi = await readMeminfo(deps.fs, deps.procRoot);
      memory = mi ? memoryFromMeminfo(mi) : undefined;
    }
    if (!cpu && !memory && !processes) return undefined;
    const sample: ContainerSample = { time: deps.clock.now() };
    if (cpu) sample.cpu = cpu;
    if (memory) sample.memory = memory;
    if (processes) sample.processes = processes;
    if (target.network) {
      const pid = target.cgroup === '/' ? ('self' as const) : (await deps.reader.pids(target.cgroup))[0];
      if (pid !== undefined) {
        const net = await readNetDev(deps.fs, pid, deps.procRoot);
        if (net) sample.network = net;
      }
    }
    return sample;
  };
}
