/**
 * The kubelet's QoS cgroup tree: creates /kubepods, /kubepods/burstable and /kubepods/besteffort at start,
 * keeps burstable shares = shares(sum of burstable pods' cpu requests) and besteffort shares = 2 (every
 * minute and on demand), creates pod cgroups with their ResourceConfigForPod, and removes pod cgroups
 * of pods that are no longer active (empty ones; cgroups with processes are left and reported).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { getPodQOS } from '../api/qos.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { KUBEPODS, MIN_SHARES, joinCgroup, milliCpuToShares, podCgroupName, qosCgroupName } from './cgroup-name.ts';
import { podAmounts, resourceConfigForPod, type PodResourceOptions } from './pod-resources.ts';
import type { CgroupManager, CgroupName, CgroupResult, QOSContainerManagerConfig } from './types.ts';

export interface QOSContainerManagerDeps {
  cgroups: CgroupManager;
  clock: Clock;
  logger: Logger;
  /** Pods that are admitted and not yet terminated (the kubelet's active pods). */
  activePods: () => V1Pod[];
}

export interface OrphanCleanupResult {
  removed: string[];
  /** Pod UIDs whose cgroups still hold processes (left in place). */
  busy: string[];
  failed: { uid: string; message: string }[];
}

export const QOS_UPDATE_PERIOD_MS = 60_000;
/** How long an unknown pod cgroup must stay orphaned (empty) before housekeeping removes it: long enough that
 * agents sharing a cgroup tree (tests, several nodes on one host) never take each other's idle pod cgroups. */
export const ORPHAN_GRACE_MS = 30_000;

export class QOSContainerManager {
  private timer: TimerHandle | undefined;
  private inflight: Promise<void> = Promise.resolve();
  private readonly root: string;
  private readonly perQos: boolean;
  private readonly orphanSince = new Map<string, number>();

  constructor(
    private readonly deps: QOSContainerManagerDeps,
    private readonly config: QOSContainerManagerConfig & PodResourceOptions = {},
  ) {
    this.root = config.cgroupRoot ?? '/';
    this.perQos = config.cgroupsPerQOS ?? true;
  }

  /** Creates the tree and starts the periodic update; idempotent. */
  async start(): Promise<CgroupResult> {
    if (!this.perQos) return { ok: true };
    const kubepods = joinCgroup(this.root, KUBEPODS);
    const steps: [CgroupName, Parameters<CgroupManager['create']>[1]][] = [
      [kubepods, this.config.podsResources],
      [qosCgroupName('Burstable', this.root), { cpuShares: MIN_SHARES }],
      [qosCgroupName('BestEffort', this.root), { cpuShares: MIN_SHARES }],
    ];
    for (const [name, res] of steps) {
      const r = await this.deps.cgroups.create(name, res);
      if (!r.ok) return r;
    }
    const u = await this.updateQOSCgroups();
    this.timer ??= this.deps.clock.setInterval(() => {
      this.inflight = this.updateQOSCgroups().then(() => undefined);
    }, QOS_UPDATE_PERIOD_MS);
    return u;
  }

  /** Resolves when the last periodic update has finished (tests). */
  idle(): Promise<void> {
    return this.inflight;
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** The cgroup_parent for a pod's sandbox. */
  podCgroupName(pod: V1Pod): CgroupName {
    return this.perQos ? podCgroupName(pod, this.root) : joinCgroup(this.root, '/');
  }

  /** Recomputes burstable/besteffort shares from the active pods. */
  async updateQOSCgroups(): Promise<CgroupResult> {
    if (!this.perQos) return { ok: true };
    let burstableMilli = 0;
    for (const p of this.deps.activePods()) {
      if (getPodQOS(p) === 'Burstable') burstableMilli += podAmounts(p, 'requests').cpuMilli;
    }
    const b = await this.deps.cgroups.update(qosCgroupName('Burstable', this.root), { cpuShares: milliCpuToShares(burstableMilli) });
    if (!b.ok) {
      this.deps.logger.warn('failed to update burstable QoS cgroup', { reason: b.reason, message: b.message });
      return b;
    }
    return this.deps.cgroups.update(qosCgroupName('BestEffort', this.root), { cpuShares: MIN_SHARES });
  }

  /** Creates (or updates) the pod cgroup with its resources. */
  async ensurePodCgroup(pod: V1Pod): Promise<CgroupResult> {
    if (!this.perQos) return { ok: true };
    const name = this.podCgroupName(pod);
    // As the kubelet's SyncPod: `if !pcm.Exists(pod) { UpdateQOSCgroups(); EnsureExists(pod) }` — a pod's
    // resources do not change while its cgroup exists, so every later sync of the pod writes nothing (it wrote
    // the pod's and the QoS cgroups' files on each sync: ≈ 2 pods a second at 110 pods).
    if (await this.deps.cgroups.exists(name)) return { ok: true };
    const r = await this.deps.cgroups.create(name, resourceConfigForPod(pod, this.config));
    if (!r.ok) return r;
    return this.updateQOSCgroups();
  }

  /** Every pod cgroup in the tree, as uid → logical name. */
  async podCgroups(): Promise<Map<string, CgroupName>> {
    const out = new Map<string, CgroupName>();
    if (!this.perQos) return out;
    for (const qos of ['Guaranteed', 'Burstable', 'BestEffort'] as const) {
      for (const child of await this.deps.cgroups.children(qosCgroupName(qos, this.root))) {
        const base = child.slice(child.lastIndexOf('/') + 1);
        if (base.startsWith('pod')) out.set(base.slice(3), child);
      }
    }
    return out;
  }

  /**
   * Removes empty pod cgroups of pods not in activeUids. Those of pods this kubelet ran itself (ownUids) go at
   * once; unknown ones only after they have stayed orphaned for the grace period.
   */
  async cleanupOrphanedPodCgroups(activeUids: Iterable<string>, ownUids?: ReadonlySet<string>): Promise<OrphanCleanupResult> {
    const active = new Set(activeUids);
    const res: OrphanCleanupResult = { removed: [], busy: [], failed: [] };
    const now = this.deps.clock.now();
    const grace = this.config.orphanGraceMs ?? ORPHAN_GRACE_MS;
    const seen = new Set<string>();
    for (const [uid, name] of await this.podCgroups()) {
      if (active.has(uid)) continue;
      seen.add(uid);
      // A pod cgroup must look orphaned for a while before it goes: one being set up right now (by another
      // agent sharing the tree, or between our admission and our pod manager update) is left alone.
      const first = this.orphanSince.get(uid) ?? now;
      this.orphanSince.set(uid, first);
      if (now - first < grace && !ownUids?.has(uid)) continue;
      if ((await this.deps.cgroups.pids(name)).length > 0) {
        res.busy.push(uid);
        continue;
      }
      const r = await this.deps.cgroups.destroy(name);
      if (r.ok) res.removed.push(uid);
      else res.failed.push({ uid, message: r.message });
    }
    for (const uid of this.orphanSince.keys()) if (!seen.has(uid) || res.removed.includes(uid)) this.orphanSince.delete(uid);
    if (res.removed.length > 0) this.deps.logger.info('removed orphaned pod cgroups', { uids: res.removed });
    return res;
  }
}
