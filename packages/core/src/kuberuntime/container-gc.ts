/**
 * Container garbage collection (pkg/kubelet/kuberuntime/kuberuntime_gc.go), every 1 min once all sources are
 * ready, with the policy MinAge / MaxPerPodContainer / MaxContainers (defaults 0 / 1 / −1):
 * 1. dead containers (not running, created before now − MinAge) grouped per (pod UID, container name), newest
 *    first; pods whose content may be removed lose all of theirs; otherwise each unit keeps MaxPerPodContainer;
 *    then, above MaxContainers, every unit is cut to MaxContainers / units (at least 1) and, if still above,
 *    the oldest go until MaxContainers remain;
 * 2. dead sandboxes without containers: all of removable pods, all but the newest of the others;
 * 3. the log files go with their containers, and removable pods' log directories with the pod.
 * One run at a time: a request while one runs joins it.
 */
import type { CriClient } from '../cri/types.ts';
import { isNotFound } from '../cri/types.ts';
import type { Container__Output, PodSandbox__Output } from '../cri/proto-types.ts';
import { CONTAINER_NAME_LABEL, POD_NAME_LABEL, POD_NAMESPACE_LABEL, POD_UID_LABEL } from '../container/labels.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { GcRunResult } from '../images/image-gc.ts';

export interface ContainerGcPolicy {
  minAgeMs: number;
  /** −1 = no limit. */
  maxPerPodContainer: number;
  /** −1 = no limit. */
  maxContainers: number;
}

export const DEFAULT_CONTAINER_GC_POLICY: ContainerGcPolicy = { minAgeMs: 0, maxPerPodContainer: 1, maxContainers: -1 };

/** File operations for log files (sizes for freedBytes, removal). */
export interface GcFs {
  size(path: string): Promise<number>;
  remove(path: string): Promise<void>;
  /** Removes a directory tree; absent is fine. */
  removeAll(path: string): Promise<void>;
}

export interface ContainerGcDeps {
  cri: Pick<CriClient, 'listContainers' | 'listPodSandbox' | 'removeContainer' | 'removePodSandbox' | 'containerStatus'>;
  clock: Clock;
  logger: Logger;
  fs?: GcFs;
  /** The pod was deleted or is terminated (evicted): all its dead containers and sandboxes may go. */
  podRemovable(uid: string): boolean;
  allSourcesReady(): boolean;
  /** /var/log/pods (the removable pods' directories are removed there). */
  podLogsDir?: string;
}

interface DeadContainer {
  id: string;
  uid: string;
  unit: string;
  label: string;
  createdAt: number;
}

const nsToMs = (ns: number): number => Math.floor(Number(ns) / 1e6);

export class ContainerGc {
  private inFlight: Promise<GcRunResult> | undefined;
  private last: GcRunResult | undefined;

  constructor(
    private readonly deps: ContainerGcDeps,
    readonly policy: ContainerGcPolicy,
  ) {}

  lastResult(): GcRunResult | undefined {
    return this.last;
  }

  garbageCollect(trigger = 'periodic'): Promise<GcRunResult> {
    this.inFlight ??= this.run(trigger).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async run(trigger: string): Promise<GcRunResult> {
    const out: GcRunResult = { removed: [], freedBytes: 0, errors: [], trigger, time: new Date(this.deps.clock.now()).toISOString() };
    try {
      const ready = this.deps.allSourcesReady();
      const containers = (await this.deps.cri.listContainers({})).containers;
      for (const c of this.selectContainers(containers, ready)) await this.removeContainer(c, out);
      await this.evictSandboxes(ready, out);
    } catch (err) {
      out.errors.push(String(err));
    }
    this.last = out;
    if (out.removed.length > 0) this.deps.logger.info('container GC', { removed: out.removed.length, freedBytes: out.freedBytes, trigger });
    return out;
  }

  /** Which dead containers to remove, oldest decisions first (pure given the list, the policy and now). */
  selectContainers(all: Container__Output[], allSourcesReady: boolean): DeadContainer[] {
    const newest = this.deps.clock.now() - this.policy.minAgeMs;
    const units = new Map<string, DeadContainer[]>();
    for (const c of all) {
      if (c.state === 'CONTAINER_RUNNING') continue;
      const createdAt = nsToMs(c.createdAt);
      if (createdAt > newest) continue;
      const l = c.labels ?? {};
      const uid = l[POD_UID_LABEL] ?? '';
      const name = l[CONTAINER_NAME_LABEL] ?? c.metadata?.name ?? '';
      const unit = `${uid}/${name}`;
      const d: DeadContainer = { id: c.id, uid, unit, createdAt, label: `${l[POD_NAMESPACE_LABEL] ?? ''}/${l[POD_NAME_LABEL] ?? ''}/${name} (${c.id.slice(0, 12)})` };
      units.set(unit, [...(units.get(unit) ?? []), d]);
    }
    for (const list of units.values()) list.sort((a, b) => b.createdAt - a.createdAt);
    const remove: DeadContainer[] = [];
    if (allSourcesReady) {
      for (const [key, list] of units) {
        if (list[0] && this.deps.podRemovable(list[0].uid)) {
          remove.push(...list);
          units.delete(key);
        }
      }
    }
    const keepPerUnit = (n: number) => {
      for (const list of units.values()) remove.push(...list.splice(Math.max(0, n)));
    };
    if (this.policy.maxPerPodContainer >= 0) keepPerUnit(this.policy.maxPerPodContainer);
    const total = () => [...units.values()].reduce((n, l) => n + l.length, 0);
    if (this.policy.maxContainers >= 0 && total() > this.policy.maxContainers) {
      const nonEmpty = [...units.values()].filter((l) => l.length > 0).length;
      keepPerUnit(Math.max(1, Math.floor(this.policy.maxContainers / Math.max(1, nonEmpty))));
      if (total() > this.policy.maxContainers) {
        const flat = [...units.values()].flat().sort((a, b) => b.createdAt - a.createdAt);
        remove.push(...flat.slice(this.policy.maxContainers));
      }
    }
    return remove.sort((a, b) => a.createdAt - b.createdAt);
  }

  private async removeContainer(c: DeadContainer, out: GcRunResult): Promise<void> {
    const { cri, fs } = this.deps;
    let logPath = '';
    try {
      logPath = (await cri.containerStatus({ containerId: c.id })).status?.logPath ?? '';
    } catch {
      // Status is only for the log path; removal decides.
    }
    try {
      await cri.removeContainer({ containerId: c.id });
    } catch (err) {
      if (!isNotFound(err)) {
        out.errors.push(`${c.label}: ${String(err)}`);
        return;
      }
    }
    out.removed.push(c.label);
    if (fs && logPath) {
      const size = await fs.size(logPath).catch(() => -1);
      if (size >= 0) await fs.remove(logPath).then(() => (out.freedBytes += size), () => undefined);
    }
  }

  private async evictSandboxes(allSourcesReady: boolean, out: GcRunResult): Promise<void> {
    const { cri } = this.deps;
    const sandboxes = (await cri.listPodSandbox({})).items;
    const withContainers = new Set((await cri.listContainers({})).containers.map((c) => c.podSandboxId));
    const byPod = new Map<string, PodSandbox__Output[]>();
    for (const s of sandboxes) {
      const uid = s.metadata?.uid ?? '';
      byPod.set(uid, [...(byPod.get(uid) ?? []), s]);
    }
    for (const [uid, list] of byPod) {
      const removable = allSourcesReady && this.deps.podRemovable(uid);
      const sorted = [...list].sort((a, b) => Number(b.createdAt) - Number(a.createdAt));
      const candidates = (removable ? sorted : sorted.slice(1)).filter((s) => s.state !== 'SANDBOX_READY' && !withContainers.has(s.id));
      for (const s of candidates) {
        try {
          await cri.removePodSandbox({ podSandboxId: s.id });
          out.removed.push(`${s.metadata?.namespace ?? ''}/${s.metadata?.name ?? ''} sandbox (${s.id.slice(0, 12)})`);
        } catch (err) {
          if (!isNotFound(err)) out.errors.push(`sandbox ${s.id}: ${String(err)}`);
        }
      }
      const m = list[0]?.metadata;
      if (removable && this.deps.fs && this.deps.podLogsDir && m && candidates.length === list.length) {
        await this.deps.fs.removeAll(`${this.deps.podLogsDir.replace(/\/$/, '')}/${m.namespace}_${m.name}_${m.uid}`).catch(() => undefined);
      }
    }
  }
}

