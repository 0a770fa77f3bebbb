/** The real Sampler: one cgroup's cpu, memory and process counts, plus its network namespace for pods. */
import type { HostFs } from '../cm/types.ts';
import type { Clock } from '../util/clock.ts';
import { readNetDev } from './net-dev.ts';
import { createNetnsPidCache } from './netns-pid.ts';
import { memoryFromMeminfo, readMeminfo, readProcStat } from './proc-readers.ts';
import { StatFiles } from './stat-files.ts';
import { USER_HZ } from './cgroup-stats-v1.ts';
import type { CgroupStatsReader, ContainerSample, CpuSample, TrackedContainer } from './types.ts';

/** Reads one sample; undefined when the cgroup is gone. */
export type Sampler = (target: TrackedContainer) => Promise<ContainerSample | undefined>;

export function createCgroupSampler(deps: { reader: CgroupStatsReader; fs: HostFs; clock: Clock; procRoot?: string }): Sampler {
  const netPids = createNetnsPidCache(deps.fs, async (cg) => (await deps.reader.pids(cg, 1))[0], deps.procRoot);
  // On the real fs a sample's cgroup files are read and parsed in one synchronous pass (stat-files.ts).
  const files = new StatFiles(deps.fs);
  return async (target) => {
    const node = target.cgroup === '/';
    // The node's process count comes from /proc/loadavg (Summary rlimit); walking the whole tree is not worth it.
    const read = files.run((f) => deps.reader.read(f, target.cgroup, !node));
    const { cpu: cgCpu, memory: cgMemory, processes } = read instanceof Promise ? await read : read;
    const cpu = node && cgCpu && !cgCpu.perCpuNanoseconds ? await nodePerCpu(deps.fs, cgCpu, deps.procRoot) : cgCpu;
    let memory = cgMemory;
    if (!memory && node) {
      const mi = await readMeminfo(deps.fs, deps.procRoot);
      memory = mi ? memoryFromMeminfo(mi) : undefined;
    }
    if (!cpu && !memory && !processes) return undefined;
    const sample: ContainerSample = { time: deps.clock.now() };
    if (cpu) sample.cpu = cpu;
    if (memory) sample.memory = memory;
    if (processes) sample.processes = processes;
    if (target.network) {
      const pid = node ? ('self' as const) : await netPids.pid(target.cgroup, deps.clock.monotonic());
      if (pid !== undefined) {
        const got = files.run((f) => readNetDev(f, pid, deps.procRoot));
        const net = got instanceof Promise ? await got : got;
        if (net) sample.network = net;
      }
    }
    return sample;
  };
}

/** The node's per-core usage where the root cgroup has none (v2): busy ticks of /proc/stat's cpuN lines. */
export async function nodePerCpu(fs: HostFs, cpu: CpuSample, procRoot?: string): Promise<CpuSample> {
  const stat = await readProcStat(fs, procRoot);
  if (!stat || stat.perCpuBusy.length === 0) return cpu;
  const { perCpuUnavailable: _drop, ...rest } = cpu;
  return { ...rest, perCpuNanoseconds: stat.perCpuBusy.map((t) => t * (1e9 / USER_HZ)) };
}
