/**
 * The volume manager: before a pod's containers are created, every volume is set up in the kubelet's layout
 * `<root>/pods/<uid>/volumes/kubernetes.io~<plugin>/<name>` (emptyDir dirs or tmpfs, API-data volumes through
 * the atomic writer — secret / downwardAPI / projected on a tmpfs when root, as the kubelet's Memory wrapper —,
 * hostPath type checks). Each pod sync calls mountPod again, which rewrites changed
 * configMap / secret / downwardAPI / projected payloads (the kubelet's periodic remount). Pod removal and
 * orphaned pod dirs are torn down (tmpfs unmounted, pod dir removed). A volume whose name, pod UID or hostPath
 * path would lead outside its place (volume-paths.ts) fails the mount before anything is made on the host.
 */
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { V1Container, V1Pod, V1Volume } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { tryParseQuantity } from '../util/quantity.ts';
import type { PodObjectSource, TokenSource } from '../podobjects/types.ts';
import { payloadPathError, writePayload, type PayloadPerms } from './atomic-writer.ts';
import { ownedFileMode, podOwnership, setVolumeOwnership, type OwnershipResult } from './volume-ownership.ts';
import { buildContainerMounts, type ResolvedVolume } from './container-mounts.ts';
import { checkHostPathType } from './host-path.ts';
import type { NodeAllocatable } from './downward-api.ts';
import { volumePayload } from './projections.ts';
import type { ContainerMountsResult, Mounter, MountPodResult, VolumeHost } from './types.ts';
import { isSafeUid, volumePath } from './volume-paths.ts';

export interface VolumeManagerDeps {
  clock: Clock;
  logger: Logger;
  objects: PodObjectSource;
  tokens: TokenSource;
  mounter: Mounter;
  /** Kubernetes Events about the pod (FailedMount). */
  event: (pod: V1Pod, type: 'Normal' | 'Warning', reason: string, message: string) => void;
  allocatable?: () => NodeAllocatable;
}

export interface VolumeManagerConfig {
  rootDir: string;
}

type SetUp = { ok: true } | { ok: false; message: string };

export class PodVolumeManager implements VolumeHost {
  private readonly log: Logger;
  private readonly warned = new Set<string>();

  constructor(
    private readonly deps: VolumeManagerDeps,
    private readonly config: VolumeManagerConfig,
  ) {
    this.log = deps.logger.child('volumemanager');
  }

  podsDir(): string {
    return join(this.config.rootDir, 'pods');
  }

  podDir(uid: string): string {
    return join(this.podsDir(), uid);
  }

  async mountPod(pod: V1Pod): Promise<MountPodResult> {
    const uid = pod.metadata?.uid;
    const failed: string[] = [];
    let first = '';
    for (const [i, v] of (pod.spec?.volumes ?? []).entries()) {
      const r = await this.setUp(pod, uid, v, i).catch((err: unknown): SetUp => ({ ok: false, message: String((err as Error).message ?? err) }));
      if (r.ok) continue;
      failed.push(v.name);
      first ||= r.message;
      this.deps.event(pod, 'Warning', 'FailedMount', `MountVolume.SetUp failed for volume "${v.name}" : ${r.message}`);
    }
    if (failed.length === 0) return { ok: true };
    const names = failed.join(' ');
    return { ok: false, reason: 'FailedMount', message: `unable to attach or mount volumes: unmounted volumes=[${names}], unattached volumes=[], failed to process volumes=[${names}]: ${first}` };
  }

  async containerMounts(pod: V1Pod, c: V1Container, vars?: Map<string, string>): Promise<ContainerMountsResult> {
    const resolved = new Map<string, ResolvedVolume>();
    const refused = new Map<string, string>();
    for (const [i, v] of (pod.spec?.volumes ?? []).entries()) {
      const r = volumePath(this.podsDir(), pod.metadata?.uid, v, i);
      if (!r) continue;
      if (!r.ok) refused.set(String(v.name), r.message);
      else resolved.set(v.name, { path: r.path, readOnly: r.plugin === 'configmap' || r.plugin === 'secret' || r.plugin === 'projected' || r.plugin === 'downward-api' });
    }
    for (const m of c.volumeMounts ?? []) {
      const bad = refused.get(m.name);
      if (bad) return { ok: false, message: `volume "${m.name}" of container "${c.name}" is refused: ${bad}` };
    }
    return buildContainerMounts(c, resolved, vars);
  }

  private async setUp(pod: V1Pod, uid: unknown, v: V1Volume, index: number): Promise<SetUp> {
    const where = volumePath(this.podsDir(), uid, v, index);
    if (where === undefined) return { ok: false, message: `volume type of "${v.name}" is not supported by nodelet` };
    if (!where.ok) return where;
    const dir = where.path;
    if (v.hostPath) return checkHostPathType(v.hostPath.path, v.hostPath.type);
    if (v.emptyDir) return this.setUpEmptyDir(pod, dir, v);
    const payload = await volumePayload({ objects: this.deps.objects, tokens: this.deps.tokens, ...(this.deps.allocatable ? { allocatable: this.deps.allocatable() } : {}) }, pod, v);
    if (!payload) return { ok: false, message: `volume type of "${v.name}" is not supported by nodelet` };
    if (!payload.ok) return payload;
    const badPath = payloadPathError(dir, payload.payload);
    if (badPath) return { ok: false, message: badPath };
    if (!v.configMap) await this.ensureTmpfs(dir);
    const w = await writePayload(dir, payload.payload, this.deps.clock.now(), this.payloadPerms(pod, v));
    if (w.ok && w.changed) this.log.debug('volume payload written', { pod: uid, volume: v.name });
    return w.ok ? { ok: true } : w;
  }

  /** The kubelet's setPerms for API-data volumes: fsGroup ownership, read-only mask, no change policy. */
  private payloadPerms(pod: V1Pod, v: V1Volume): PayloadPerms | undefined {
    const o = podOwnership(pod.spec?.securityContext, true);
    if (!o) return undefined;
    return {
      apply: async (target) => this.warnOwnership(pod, v, await setVolumeOwnership(target, o)),
      fileMode: (m) => ownedFileMode(m, true),
    };
  }

  private warnOwnership(pod: V1Pod, v: V1Volume, r: OwnershipResult): void {
    if (r.errors.length > 0) this.log.warn('volume ownership not fully set', { pod: pod.metadata?.uid, volume: v.name, errors: r.errors.slice(0, 3) });
  }

  /** Secret, downwardAPI and projected volumes live on a tmpfs (the kubelet's Memory-medium wrapper), when root. */
  private async ensureTmpfs(dir: string): Promise<void> {
    const m = this.deps.mounter;
    await mkdir(dir, { recursive: true });
    if (m.canMount && !(await m.mountPointsUnder(dir)).includes(dir)) await m.mountTmpfs(dir);
  }

  private async setUpEmptyDir(pod: V1Pod, dir: string, v: V1Volume): Promise<SetUp> {
    const fresh = (await mkdir(dir, { recursive: true })) !== undefined;
    if (v.emptyDir?.medium === 'Memory') {
      const m = this.deps.mounter;
      if (!m.canMount) {
        const key = `${pod.metadata?.uid}/${v.name}`;
        if (!this.warned.has(key)) this.log.warn('emptyDir medium Memory needs root: using a plain directory', { volume: v.name });
        this.warned.add(key);
      } else if (!(await m.mountPointsUnder(dir)).includes(dir)) {
        const q = v.emptyDir.sizeLimit !== undefined ? tryParseQuantity(String(v.emptyDir.sizeLimit)) : undefined;
        if (q && !q.ok) return { ok: false, message: q.reason };
        await m.mountTmpfs(dir, q?.ok ? Math.ceil(q.value) : undefined);
      }
    } else if (v.emptyDir?.medium && v.emptyDir.medium !== '') {
      return { ok: false, message: `unknown storage medium "${v.emptyDir.medium}"` };
    }
    // The kubelet sets an emptyDir up once (its ready file): the mode and fsGroup ownership are not re-applied
    // over what the pod wrote since.
    if (!fresh) return { ok: true };
    await chmod(dir, 0o777);
    this.warnOwnership(pod, v, await setVolumeOwnership(dir, podOwnership(pod.spec?.securityContext, false)));
    return { ok: true };
  }

  /** Unmounts what is mounted under the pod dir and removes it (refusing while a mount remains). */
  async teardownPod(uid: string): Promise<{ ok: true } | { ok: false; message: string }> {
    if (!isSafeUid(uid)) return { ok: false, message: `invalid pod uid ${JSON.stringify(uid)}` };
    const dir = this.podDir(uid);
    this.deps.tokens.deleteServiceAccountToken(uid);
    const mounts = (await this.deps.mounter.mountPointsUnder(dir)).sort((a, b) => b.length - a.length);
    for (const p of mounts) {
      try {
        await this.deps.mounter.unmount(p);
      } catch (err) {
        return { ok: false, message: `failed to unmount ${p}: ${String(err)}` };
      }
    }
    await rm(dir, { recursive: true, force: true });
    this.log.info('removed pod volumes dir', { pod: uid });
    return { ok: true };
  }

  /** Tears down the dirs of pods `keep` says are gone (orphans at startup and in housekeeping). */
  async cleanupOrphans(keep: (uid: string) => boolean): Promise<string[]> {
    const uids = await readdir(this.podsDir()).catch(() => [] as string[]);
    const removed: string[] = [];
    for (const uid of uids) {
      if (keep(uid)) continue;
      const r = await this.teardownPod(uid);
      if (r.ok) removed.push(uid);
      else this.log.warn('orphaned pod dir not removed', { pod: uid, err: r.message });
    }
    return removed;
  }
}
