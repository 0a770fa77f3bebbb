/**
 * The container manager as the kubelet wires it: cgroup_parent for sandboxes, the QoS tree and pod cgroups
 * (ensurePodCgroup before RunPodSandbox, orphan cleanup in housekeeping), node allocatable. Where cgroups are
 * not writable (not root) it degrades to naming only: no QoS tree, logged once.
 */
import * as os from 'node:os';
import type { V1Pod } from '@kubernetes/client-node';
import { ContainerManager, type ContainerManagerConfig } from '../cm/container-manager.ts';
import type { HostFs, NodeResources } from '../cm/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { CgroupStatus } from './stats-api.ts';

export interface CmWiringDeps {
  fs: HostFs;
  clock: Clock;
  logger: Logger;
  activePods: () => V1Pod[];
}

export interface CmWiringConfig extends ContainerManagerConfig {
  rootDir: string;
  maxPods: number;
}

export class CmWiring {
  readonly cm: ContainerManager;
  private managed = false;
  private started = false;
  private message: string | undefined;
  private nodefsBytes = 0;
  private readonly warned = new Set<string>();
  /** Pods whose cgroup this kubelet ensured: theirs is removed as soon as the pod is gone. */
  private readonly own = new Set<string>();

  constructor(
    private readonly deps: CmWiringDeps,
    private readonly config: CmWiringConfig,
  ) {
    this.cm = new ContainerManager(
      { fs: deps.fs, clock: deps.clock, logger: deps.logger, activePods: deps.activePods, capacity: () => this.capacity() },
      config,
    );
  }

  /** Cores, read once (as cAdvisor's machine info): os.cpus() parses /proc/cpuinfo and /proc/stat on every call. */
  private readonly cores = os.cpus().length;

  /** Node capacity: cores × 1000, MemTotal, nodefs size (statfs of the root dir), maxPods. */
  capacity(): NodeResources {
    return { cpuMilli: this.cores * 1000, memoryBytes: os.totalmem(), ephemeralStorageBytes: this.nodefsBytes, pods: this.config.maxPods };
  }

  get perQos(): boolean {
    return this.config.cgroupsPerQOS ?? true;
  }

  /** The QoS tree exists and pod cgroups are ours to manage. */
  get qosManaged(): boolean {
    return this.managed;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      const s = await this.deps.fs.statfs(this.config.rootDir);
      this.nodefsBytes = s.blocks * s.bsize;
    } catch {
      this.nodefsBytes = 0;
    }
    const r = await this.cm.start();
    this.managed = r.ok && this.perQos;
    if (!r.ok) {
      this.message = `${r.reason}: ${r.message}`;
      this.deps.logger.warn('cgroups not manageable here: no QoS tree, stats from what is readable', { reason: r.reason, message: r.message });
    }
  }

  stop(): void {
    this.cm.stop();
  }

  /** The CRI cgroup_parent of the pod's sandbox. */
  cgroupParent(pod: V1Pod): string {
    return this.cm.podCgroupName(pod);
  }

  /** Before RunPodSandbox (every sync, as the kubelet's pod container manager EnsureExists). */
  async ensurePod(pod: V1Pod): Promise<void> {
    if (!this.managed) return;
    const t0 = this.deps.clock.monotonic();
    const r = await this.cm.ensurePodCgroup(pod);
    this.observe?.('create', (this.deps.clock.monotonic() - t0) / 1000);
    const uid = pod.metadata?.uid ?? '';
    if (r.ok) this.own.add(uid);
    if (!r.ok && !this.warned.has(uid)) {
      this.warned.add(uid);
      this.deps.logger.warn('failed to ensure pod cgroup', { pod: `${pod.metadata?.namespace}/${pod.metadata?.name}`, reason: r.reason, message: r.message });
    }
  }

  /** Housekeeping: removes empty pod cgroups of pods that are no longer active. */
  async cleanup(activeUids: Iterable<string>): Promise<void> {
    if (!this.managed) return;
    const active = new Set(activeUids);
    for (const uid of this.warned) if (!active.has(uid)) this.warned.delete(uid);
    const t0 = this.deps.clock.monotonic();
    const r = await this.cm.cleanupOrphanedPodCgroups(active, this.own);
    for (const uid of r.removed) this.own.delete(uid);
    if (r.removed.length > 0) this.observe?.('destroy', (this.deps.clock.monotonic() - t0) / 1000);
    for (const f of r.failed) this.deps.logger.warn('failed to remove orphaned pod cgroup', f);
  }

  /** kubelet_cgroup_manager_duration_seconds hook. */
  observe: ((op: string, seconds: number) => void) | undefined;

  status(): CgroupStatus {
    const layout = this.cm.layout;
    const out: CgroupStatus = { driver: layout?.driver ?? 'none', qosTree: this.managed };
    if (layout) out.mode = layout.mode;
    if (this.message) out.message = this.message;
    const a = this.cm.nodeAllocatable();
    if (a.ok) out.allocatable = { cpuMilli: a.allocatable.cpuMilli, memoryBytes: a.allocatable.memoryBytes, ephemeralStorageBytes: a.allocatable.ephemeralStorageBytes, pods: a.allocatable.pods };
    return out;
  }
}
