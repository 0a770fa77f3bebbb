/**
 * The stats facade the kubelet wires once: cgroup readers for the detected layout, the housekeeper
 * (node '/' always tracked, containers registered by the wiring), machine info, the Summary API and the
 * source the /metrics/cadvisor collectors read. watch() is the reference-counted metrics stream.
 */
import type { CgroupLayout, HostFs } from '../cm/types.ts';
import type { CadvisorContainerInfo, CadvisorSource } from '../metrics/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { createCgroupStatsReader } from './cgroup-stats.ts';
import { Housekeeper, type HousekeeperConfig, type SampleListener } from './housekeeper.ts';
import { readMachineInfo } from './machine-info.ts';
import { createCgroupSampler, type Sampler } from './sampler.ts';
import { FsUsageCache } from './fs-usage-cache.ts';
import { SummaryBuilder, type SummaryPodSource, type SummaryProvider } from './summary-builder.ts';
import type { Summary } from './summary-types.ts';
import type { ContainerSample, DiskUsage, MachineInfo, TrackedContainer } from './types.ts';

export interface StatsProviderDeps {
  fs: HostFs;
  clock: Clock;
  logger: Logger;
  layout: CgroupLayout;
  du: DiskUsage;
  summary: SummaryProvider;
  /** Override the sampler (tests). */
  sampler?: Sampler;
  /** Filesystem usage of a tracked container for /metrics/cadvisor (container_fs_*), from cached figures. */
  containerFs?: (target: TrackedContainer) => CadvisorContainerInfo['fs'];
}

/** Directories the Summary measures with du: container logs and writable-layer dirs, pod volumes. */
export function usagePaths(pods: SummaryPodSource[]): string[] {
  const out: string[] = [];
  for (const p of pods) {
    for (const c of p.containers) {
      if (c.logDir !== undefined) out.push(c.logDir);
      if (c.rootfsPath !== undefined && !c.writableLayer) out.push(c.rootfsPath);
    }
    for (const v of p.volumes ?? []) out.push(v.path);
  }
  return out;
}

export const NODE_KEY = '/';

export class StatsProvider {
  readonly housekeeper: Housekeeper;
  /** du of logs and volumes (and runtime jobs added by the wiring), every volumeStatsAggPeriod (1 min). */
  readonly fsUsage: FsUsageCache;
  private machine: MachineInfo | undefined;
  private readonly builder: SummaryBuilder;
  /** Changes the housekeeper does not count: a target relabelled, new filesystem figures. */
  private gen = 0;

  constructor(
    private readonly deps: StatsProviderDeps,
    config: HousekeeperConfig & { fsUsageIntervalMs?: number } = {},
  ) {
    const reader = createCgroupStatsReader(deps.fs, deps.layout);
    const sampler = deps.sampler ?? createCgroupSampler({ reader, fs: deps.fs, clock: deps.clock });
    this.housekeeper = new Housekeeper({ clock: deps.clock, sampler, logger: deps.logger.child('housekeeper') }, config);
    this.fsUsage = new FsUsageCache({ du: deps.du, clock: deps.clock, logger: deps.logger.child('fs-usage'), paths: () => usagePaths(deps.summary.pods()) }, config.fsUsageIntervalMs ?? 60_000);
    this.builder = new SummaryBuilder({
      provider: deps.summary,
      samples: this.housekeeper,
      fs: deps.fs,
      du: this.fsUsage.lookup,
      clock: deps.clock,
      memoryCapacityBytes: () => this.machine?.memoryCapacityBytes ?? 0,
    });
  }

  /** Reads machine info, tracks the node and starts housekeeping; idempotent. */
  async start(): Promise<void> {
    this.machine ??= await readMachineInfo(this.deps.fs);
    this.housekeeper.register({ key: NODE_KEY, cgroup: '/', network: true });
    this.housekeeper.start();
    this.fsUsage.start();
  }

  stop(): void {
    this.housekeeper.stop();
    this.fsUsage.stop();
  }

  machineInfo(): MachineInfo | undefined {
    return this.machine;
  }

  /** Makes the tracked set equal to `targets` (plus the node): registers new ones, drops the rest. */
  syncTracked(targets: TrackedContainer[]): void {
    const want = new Map(targets.map((t) => [t.key, t]));
    for (const key of this.housekeeper.keys()) if (key !== NODE_KEY && !want.has(key)) this.housekeeper.unregister(key);
    for (const t of want.values()) {
      const old = this.housekeeper.target(t.key);
      if (old && old !== t && !sameTarget(old, t)) this.gen++; // new or dropped keys count in the housekeeper
      this.housekeeper.register(t);
    }
  }

  /**
   * Changes whenever what /metrics/cadvisor shows changes: a sample kept, a container tracked or dropped (the
   * housekeeper's version), its labels, spec or cgroup changed, or dataChanged(). Two counters that only grow: their
   * sum moves with either.
   */
  generation(): number {
    return this.housekeeper.version() + this.gen;
  }

  /** Something else the cadvisor source reads changed (containerFs's figures): the next generation() differs. */
  dataChanged(): void {
    this.gen++;
  }

  /** Reference-counted live samples of one container (or NODE_KEY). */
  watch(key: string, listener: SampleListener): () => void {
    return this.housekeeper.watch(key, listener);
  }

  history(key: string, since?: number, limit?: number): ContainerSample[] {
    return this.housekeeper.history(key, since, limit);
  }

  summary(opts: { onlyCpuAndMemory?: boolean } = {}): Promise<Summary> {
    return opts.onlyCpuAndMemory ? Promise.resolve(this.builder.cpuAndMemory()) : this.builder.build();
  }

  /** Synchronous cpu-and-memory Summary from the latest samples (what /metrics/resource reads). */
  cpuAndMemorySummary(): Summary {
    return this.builder.cpuAndMemory();
  }

  /** What /metrics/cadvisor reads at scrape time. */
  cadvisorSource(): CadvisorSource {
    return {
      containers: () =>
        this.housekeeper.keys().flatMap((key): CadvisorContainerInfo[] => {
          const t = this.housekeeper.target(key);
          if (!t) return [];
          const info: CadvisorContainerInfo = { id: t.cgroup, ...t.labels };
          const sample = this.housekeeper.latest(key);
          if (sample) info.sample = sample;
          const fs = this.deps.containerFs?.(t);
          if (fs?.length) info.fs = fs;
          if (t.spec || t.startTimeMs !== undefined) info.spec = { ...t.spec, ...(t.startTimeMs !== undefined ? { startTimeMs: t.startTimeMs } : {}) };
          return [info];
        }),
      machine: () => this.machine,
      version: () => ({ kernelVersion: this.machine?.kernelVersion ?? '', osVersion: this.machine?.osImage ?? '', cadvisorVersion: 'nodelet', cadvisorRevision: '', dockerVersion: '' }),
    };
  }
}

const LABEL_KEYS = ['name', 'image', 'pod', 'namespace', 'container'] as const;
const SPEC_KEYS = ['cpuShares', 'cpuQuota', 'cpuPeriod', 'memoryLimit'] as const;

/** Same cgroup, labels, spec and start time (what a tracked container contributes to /metrics/cadvisor). */
function sameTarget(a: TrackedContainer, b: TrackedContainer): boolean {
  return (
    a.cgroup === b.cgroup &&
    a.network === b.network &&
    a.startTimeMs === b.startTimeMs &&
    LABEL_KEYS.every((k) => a.labels?.[k] === b.labels?.[k]) &&
    SPEC_KEYS.every((k) => a.spec?.[k] === b.spec?.[k]) &&
    (a.labels === undefined) === (b.labels === undefined) &&
    (a.spec === undefined) === (b.spec === undefined)
  );
}
