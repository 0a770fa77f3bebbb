/**
 * The node's one container garbage collector: the kubelet's containerGC (pkg/kubelet/kuberuntime/kuberuntime_gc.go),
 * run every minute (garbageCollect) and by the eviction manager to reclaim disk (deleteAllUnusedContainers), with
 * the policy MinAge / MaxPerPodContainer / MaxContainers (--minimum-container-ttl-duration 0,
 * --maximum-dead-containers-per-container 1, --maximum-dead-containers −1):
 * 1. evictable containers: not running, created before now − MinAge, grouped per (pod UID, container name),
 *    newest first. Once all sources are ready, the units of pods whose content may be removed
 *    (PodStateProvider.shouldPodContentBeRemoved — deleted and terminated, evicted, or unknown) go whole; so do
 *    those whose runtime may be removed (shouldPodRuntimeBeRemoved: terminated) when reclaiming for eviction.
 *    The others keep MaxPerPodContainer each; then, above MaxContainers, every unit is cut to
 *    MaxContainers / units (at least 1) and, if still above, the oldest go until MaxContainers remain;
 * 2. sandboxes that are not ready and hold no container: every one of a pod that may be removed (as above),
 *    all but the newest of the others (a pod still in use keeps its latest dead sandbox);
 * 3. a removed container's log file (and its rotated files) goes with it; once all sources are ready, the log directory
 *    (<podLogsDir>/<namespace>_<name>_<uid>) of every pod whose content may be removed goes too.
 * It only removes: a running container is never touched, and one in UNKNOWN state is left to the pod worker
 * (the kubelet stops it first; here no manager but the pod worker kills pod containers).
 * One run at a time: a request while one of the same kind runs joins it; the other kind runs after it.
 */
import { posix } from 'node:path';
import type { CriClient } from '../cri/types.ts';
import { isNotFound } from '../cri/types.ts';
import type { Container__Output, PodSandbox__Output } from '../cri/proto-types.ts';
import { CONTAINER_NAME_LABEL, POD_NAME_LABEL, POD_NAMESPACE_LABEL, POD_UID_LABEL } from '../container/labels.ts';
import type { PodStateProvider } from '../kubelet/pod-state-provider.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { GcRunResult } from '../images/image-gc.ts';
import { rotatedLogFiles } from './logs/log-rotation.ts';

export interface ContainerGcPolicy {
  minAgeMs: number;
  /** −1 = no limit. */
  maxPerPodContainer: number;
  /** −1 = no limit. */
  maxContainers: number;
}

export const DEFAULT_CONTAINER_GC_POLICY: ContainerGcPolicy = { minAgeMs: 0, maxPerPodContainer: 1, maxContainers: -1 };

/** File operations for log files (sizes for freedBytes, removal) and the pod log directories. */
export interface GcFs {
  size(path: string): Promise<number>;
  remove(path: string): Promise<void>;
  /** Removes a directory tree; absent is fine. */
  removeAll(path: string): Promise<void>;
  /** Entry names of a directory. */
  readDir(path: string): Promise<string[]>;
}

export interface ContainerGcDeps {
  cri: Pick<CriClient, 'listContainers' | 'listPodSandbox' | 'removeContainer' | 'stopPodSandbox' | 'removePodSandbox' | 'containerStatus'>;
  clock: Clock;
  logger: Logger;
  /** The pod workers' answer to "may this pod's containers, sandboxes and directories go?". */
  podState: () => Pick<PodStateProvider, 'shouldPodRuntimeBeRemoved' | 'shouldPodContentBeRemoved'>;
  allSourcesReady(): boolean;
  fs?: GcFs;
  /** /var/log/pods: container log files are removed only below it, and pod log directories in it. */
  podLogsDir?: string;
  /** The internal container lifecycle's PostStopContainer (the topology manager forgets the container's hint). */
  postStopContainer?: (containerId: string) => void;
}

export interface DeadContainer {
  id: string;
  uid: string;
  unit: string;
  label: string;
  createdAt: number;
}

const nsToMs = (ns: number | string): number => Math.floor(Number(ns) / 1e6);
/** Newest first; ties by id so that a run is deterministic. */
const newestFirst = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1);

export class ContainerGc {
  private readonly inFlight = new Map<boolean, Promise<GcRunResult>>();
  private tail: Promise<unknown> = Promise.resolve();
  private last: GcRunResult | undefined;

  constructor(
    private readonly deps: ContainerGcDeps,
    readonly policy: ContainerGcPolicy,
  ) {}

  lastResult(): GcRunResult | undefined {
    return this.last;
  }

  /** A container GC is running. */
  running(): boolean {
    return this.inFlight.size > 0;
  }

  /** The periodic collection (the kubelet's GarbageCollect: evictNonDeletedPods false). */
  garbageCollect(trigger = 'periodic'): Promise<GcRunResult> {
    return this.request(trigger, false);
  }

  /** Disk reclaim for the eviction manager (DeleteAllUnusedContainers): terminated pods lose all theirs too. */
  deleteAllUnusedContainers(trigger = 'eviction'): Promise<GcRunResult> {
    return this.request(trigger, true);
  }

  private request(trigger: string, evictNonDeletedPods: boolean): Promise<GcRunResult> {
    const joined = this.inFlight.get(evictNonDeletedPods);
    if (joined) return joined;
    const run = this.tail.then(() => this.run(trigger, evictNonDeletedPods)).finally(() => this.inFlight.delete(evictNonDeletedPods));
    this.tail = run.catch(() => undefined);
    this.inFlight.set(evictNonDeletedPods, run);
    return run;
  }

  private async run(trigger: string, evictNonDeletedPods: boolean): Promise<GcRunResult> {
    const out: GcRunResult = { removed: [], freedBytes: 0, errors: [], trigger, time: new Date(this.deps.clock.now()).toISOString() };
    const ready = this.deps.allSourcesReady();
    const step = async (what: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        out.errors.push(`${what}: ${String(err)}`);
      }
    };
    await step('containers', async () => {
      const containers = (await this.deps.cri.listContainers({})).containers;
      for (const c of this.selectContainers(containers, ready, evictNonDeletedPods)) await this.removeContainer(c, out);
    });
    await step('sandboxes', async () => {
      const { cri } = this.deps;
      const sandboxes = (await cri.listPodSandbox({})).items;
      const containers = (await cri.listContainers({})).containers;
      for (const s of this.selectSandboxes(sandboxes, containers, evictNonDeletedPods)) await this.removeSandbox(s, out);
    });
    if (ready) await step('pod log directories', () => this.evictPodLogsDirectories());
    this.last = out;
    if (out.removed.length > 0 || out.errors.length > 0) {
      this.deps.logger.info('container GC', { removed: out.removed.length, freedBytes: out.freedBytes, errors: out.errors.length, trigger });
    }
    return out;
  }

  private removable(uid: string, evictNonDeletedPods: boolean): boolean {
    const podState = this.deps.podState();
    return podState.shouldPodContentBeRemoved(uid) || (evictNonDeletedPods && podState.shouldPodRuntimeBeRemoved(uid));
  }

  /** Which dead containers to remove (evictContainers; pure given the listing, the policy, the provider and now). */
  selectContainers(all: Container__Output[], allSourcesReady: boolean, evictNonDeletedPods = false): DeadContainer[] {
    const newestGcTime = this.deps.clock.now() - this.policy.minAgeMs;
    const units = new Map<string, DeadContainer[]>();
    for (const c of all) {
      // Running containers are never evictable; UNKNOWN ones may be running, and only the pod worker kills.
      if (c.state === 'CONTAINER_RUNNING' || c.state === 'CONTAINER_UNKNOWN') continue;
      const createdAt = nsToMs(c.createdAt);
      if (createdAt > newestGcTime) continue;
      const l = c.labels ?? {};
      const uid = l[POD_UID_LABEL] ?? '';
      const name = c.metadata?.name ?? l[CONTAINER_NAME_LABEL] ?? '';
      const unit = JSON.stringify([uid, name]);
      const label = `${l[POD_NAMESPACE_LABEL] ?? ''}/${l[POD_NAME_LABEL] ?? ''}/${name} (${c.id.slice(0, 12)})`;
      const list = units.get(unit) ?? [];
      list.push({ id: c.id, uid, unit, createdAt, label });
      units.set(unit, list);
    }
    for (const list of units.values()) list.sort(newestFirst);
    const remove: DeadContainer[] = [];
    if (allSourcesReady) {
      for (const [key, list] of units) {
        if (list[0] && this.removable(list[0].uid, evictNonDeletedPods)) {
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
      // Leave an equal number per unit (at least 1); units emptied above still count, as in the kubelet.
      keepPerUnit(Math.max(1, Math.floor(this.policy.maxContainers / units.size)));
      if (total() > this.policy.maxContainers) {
        const flat = [...units.values()].flat().sort(newestFirst);
        remove.push(...flat.slice(this.policy.maxContainers));
      }
    }
    return remove.sort((a, b) => newestFirst(b, a));
  }

  /** Which sandboxes to remove (evictSandboxes): not ready, no container, and not the newest of a pod still in use. */
  selectSandboxes(sandboxes: PodSandbox__Output[], containers: Container__Output[], evictNonDeletedPods = false): PodSandbox__Output[] {
    const withContainers = new Set(containers.map((c) => c.podSandboxId));
    const byPod = new Map<string, PodSandbox__Output[]>();
    for (const s of sandboxes) {
      const uid = s.metadata?.uid ?? '';
      const list = byPod.get(uid) ?? [];
      list.push(s);
      byPod.set(uid, list);
    }
    const remove: PodSandbox__Output[] = [];
    for (const [uid, list] of byPod) {
      const sorted = list.map((s) => ({ s, id: s.id, createdAt: Number(s.createdAt) })).sort(newestFirst);
      const candidates = this.removable(uid, evictNonDeletedPods) ? sorted : sorted.slice(1);
      remove.push(...candidates.filter(({ s }) => s.state !== 'SANDBOX_READY' && !withContainers.has(s.id)).map(({ s }) => s));
    }
    return remove;
  }

  private async removeContainer(c: DeadContainer, out: GcRunResult): Promise<void> {
    const { cri } = this.deps;
    let logPath = '';
    try {
      logPath = (await cri.containerStatus({ containerId: c.id })).status?.logPath ?? '';
    } catch {
      // Status is only for the log path; removal decides.
    }
    try {
      this.deps.postStopContainer?.(c.id);
      await cri.removeContainer({ containerId: c.id });
    } catch (err) {
      if (!isNotFound(err)) {
        out.errors.push(`${c.label}: ${String(err)}`);
        return;
      }
    }
    out.removed.push(c.label);
    const file = this.underPodLogsDir(logPath);
    if (this.deps.fs && file) await this.removeLogFiles(this.deps.fs, file, out);
  }

  /** The log file and its rotations (`<file>.<stamp>[.gz]`), as the kubelet's log manager Clean. */
  private async removeLogFiles(fs: GcFs, file: string, out: GcRunResult): Promise<void> {
    const rotated = rotatedLogFiles(file, await fs.readDir(posix.dirname(file)).catch(() => []));
    for (const f of [file, ...rotated]) {
      const size = await fs.size(f).catch(() => -1);
      if (size >= 0) await fs.remove(f).then(() => (out.freedBytes += size), () => undefined);
    }
  }

  private async removeSandbox(s: PodSandbox__Output, out: GcRunResult): Promise<void> {
    const { cri } = this.deps;
    const label = `${s.metadata?.namespace ?? ''}/${s.metadata?.name ?? ''} sandbox (${s.id.slice(0, 12)})`;
    try {
      // As the kubelet: stop first (a no-op for a stopped sandbox; it has no container), then remove.
      await cri.stopPodSandbox({ podSandboxId: s.id });
      await cri.removePodSandbox({ podSandboxId: s.id });
      out.removed.push(label);
    } catch (err) {
      if (isNotFound(err)) out.removed.push(label);
      else out.errors.push(`${label}: ${String(err)}`);
    }
  }

  /** evictPodLogsDirectories: the directories of pods whose content may be removed (only once all sources are ready). */
  private async evictPodLogsDirectories(): Promise<void> {
    const { fs, podLogsDir, podState, logger } = this.deps;
    if (!fs || !podLogsDir) return;
    const root = posix.resolve(podLogsDir);
    for (const name of await fs.readDir(root)) {
      const dir = posix.join(root, name);
      if (posix.dirname(dir) !== root) continue;
      // <namespace>_<name>_<uid>: the UID is the last part (a bare UID is the legacy layout).
      const uid = name.slice(name.lastIndexOf('_') + 1);
      if (!podState().shouldPodContentBeRemoved(uid)) continue;
      await fs.removeAll(dir).then(
        () => logger.info('container GC: removed pod log directory', { dir }),
        (err: unknown) => logger.warn('container GC: failed to remove pod log directory', { dir, err: String(err) }),
      );
    }
  }

  /** A runtime-reported log path, normalised, if it lies below the pod logs directory (else nothing is removed). */
  private underPodLogsDir(path: string): string | undefined {
    const { podLogsDir } = this.deps;
    if (!path || !podLogsDir || !posix.isAbsolute(path)) return undefined;
    const file = posix.resolve(path);
    return file.startsWith(`${posix.resolve(podLogsDir)}/`) ? file : undefined;
  }
}
