/**
 * The container manager the kubelet wires: detects the cgroup layout, picks the v1 or v2 CgroupManager,
 * runs the QoS tree (kubepods limited to capacity − reserved when enforceNodeAllocatable has "pods"),
 * and answers node allocatable. Expected failures are values; nothing happens in the constructor.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { createCgroupManager } from './cgroup-manager.ts';
import { joinCgroup, podCgroupName } from './cgroup-name.ts';
import { detectCgroupLayout } from './mountinfo.ts';
import { computeNodeAllocatable, kubepodsResources, type AllocatableInput, type AllocatableResult } from './node-allocatable.ts';
import type { PodResourceOptions } from './pod-resources.ts';
import { QOSContainerManager, type OrphanCleanupResult } from './qos-container-manager.ts';
import type { CgroupLayout, CgroupManager, CgroupName, CgroupResult, HostFs, NodeResources, ResourceList } from './types.ts';

export interface ContainerManagerDeps {
  fs: HostFs;
  clock: Clock;
  logger: Logger;
  activePods: () => V1Pod[];
  /** Node capacity (from machine info) — needed for kubepods limits and allocatable. */
  capacity: () => NodeResources;
}

export interface ContainerManagerConfig extends PodResourceOptions {
  cgroupRoot?: string;
  cgroupsPerQOS?: boolean;
  kubeReserved?: ResourceList;
  systemReserved?: ResourceList;
  evictionHard?: Record<string, string>;
  /** enforceNodeAllocatable (default ['pods']). */
  enforceNodeAllocatable?: string[];
  /** See QOSContainerManagerConfig.orphanGraceMs. */
  orphanGraceMs?: number;
}

export class ContainerManager {
  private layoutValue: CgroupLayout | undefined;
  private cgroupsValue: CgroupManager | undefined;
  private qos: QOSContainerManager | undefined;

  constructor(
    private readonly deps: ContainerManagerDeps,
    private readonly config: ContainerManagerConfig = {},
  ) {}

  get layout(): CgroupLayout | undefined {
    return this.layoutValue;
  }

  get cgroups(): CgroupManager | undefined {
    return this.cgroupsValue;
  }

  private allocatableInput(): AllocatableInput {
    const input: AllocatableInput = { capacity: this.deps.capacity() };
    if (this.config.kubeReserved) input.kubeReserved = this.config.kubeReserved;
    if (this.config.systemReserved) input.systemReserved = this.config.systemReserved;
    if (this.config.evictionHard) input.evictionHard = this.config.evictionHard;
    return input;
  }

  /** Detects the layout and builds the QoS tree; idempotent. */
  async start(): Promise<CgroupResult> {
    if (!this.qos) {
      const l = await detectCgroupLayout(this.deps.fs);
      if (!l.ok) return l;
      this.layoutValue = l.layout;
      this.cgroupsValue = createCgroupManager(this.deps.fs, l.layout);
      const enforcePods = (this.config.enforceNodeAllocatable ?? ['pods']).includes('pods');
      const pods = enforcePods ? kubepodsResources(this.allocatableInput()) : undefined;
      if (pods && !pods.ok) return pods;
      this.qos = new QOSContainerManager(
        { cgroups: this.cgroupsValue, clock: this.deps.clock, logger: this.deps.logger.child('cm'), activePods: this.deps.activePods },
        { ...this.config, ...(pods?.ok ? { podsResources: pods.resources } : {}) },
      );
    }
    return this.qos.start();
  }

  stop(): void {
    this.qos?.stop();
  }

  /** cgroup_parent for the pod's sandbox (works before start: naming needs no I/O). */
  podCgroupName(pod: V1Pod): CgroupName {
    return (this.config.cgroupsPerQOS ?? true) ? podCgroupName(pod, this.config.cgroupRoot) : joinCgroup(this.config.cgroupRoot, '/');
  }

  async ensurePodCgroup(pod: V1Pod): Promise<CgroupResult> {
    if (!this.qos) return { ok: false, reason: 'ContainerManagerNotStarted', message: 'container manager not started' };
    return this.qos.ensurePodCgroup(pod);
  }

  async cleanupOrphanedPodCgroups(activeUids: Iterable<string>, ownUids?: ReadonlySet<string>): Promise<OrphanCleanupResult> {
    if (!this.qos) return { removed: [], busy: [], failed: [] };
    return this.qos.cleanupOrphanedPodCgroups(activeUids, ownUids);
  }

  updateQOSCgroups(): Promise<CgroupResult> {
    return this.qos ? this.qos.updateQOSCgroups() : Promise.resolve({ ok: true });
  }

  /** capacity − kube-reserved − system-reserved − hard eviction. */
  nodeAllocatable(): AllocatableResult {
    return computeNodeAllocatable(this.allocatableInput());
  }
}
