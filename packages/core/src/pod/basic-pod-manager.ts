/**
 * The pod manager: the desired pods, indexed by UID and by full name (namespace/name). Mirror pods (from the
 * API source, annotated kubernetes.io/config.mirror) are kept apart and linked to their static pod by full name.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isMirrorPod, isStaticPod, podFullName, buildPodFullName } from '../api/pod-helpers.ts';
import type { PodManager } from './types.ts';

export class BasicPodManager implements PodManager {
  private readonly byUid = new Map<string, V1Pod>();
  private readonly byFullName = new Map<string, V1Pod>();
  private readonly mirrorByUid = new Map<string, V1Pod>();
  private readonly mirrorByFullName = new Map<string, V1Pod>();

  getPods(): V1Pod[] {
    return [...this.byUid.values()];
  }

  getPodByUid(uid: string): V1Pod | undefined {
    return this.byUid.get(uid);
  }

  getPodByFullName(fullName: string): V1Pod | undefined {
    return this.byFullName.get(fullName);
  }

  getPodByName(namespace: string, name: string): V1Pod | undefined {
    return this.byFullName.get(buildPodFullName(namespace, name));
  }

  setPods(pods: V1Pod[]): void {
    this.byUid.clear();
    this.byFullName.clear();
    this.mirrorByUid.clear();
    this.mirrorByFullName.clear();
    for (const p of pods) this.updatePod(p);
  }

  addPod(pod: V1Pod): void {
    this.updatePod(pod);
  }

  updatePod(pod: V1Pod): void {
    const uid = pod.metadata?.uid;
    if (!uid) throw new Error(`pod ${podFullName(pod)} has no UID`);
    const full = podFullName(pod);
    const [uidMap, nameMap] = isMirrorPod(pod) ? [this.mirrorByUid, this.mirrorByFullName] : [this.byUid, this.byFullName];
    const prev = uidMap.get(uid);
    if (prev && podFullName(prev) !== full && nameMap.get(podFullName(prev)) === prev) nameMap.delete(podFullName(prev));
    uidMap.set(uid, pod);
    nameMap.set(full, pod);
  }

  removePod(pod: V1Pod): void {
    const uid = pod.metadata?.uid ?? '';
    const [uidMap, nameMap] = isMirrorPod(pod) ? [this.mirrorByUid, this.mirrorByFullName] : [this.byUid, this.byFullName];
    const prev = uidMap.get(uid);
    uidMap.delete(uid);
    const full = podFullName(prev ?? pod);
    if (nameMap.get(full)?.metadata?.uid === uid) nameMap.delete(full);
  }

  getStaticPods(): V1Pod[] {
    return this.getPods().filter((p) => isStaticPod(p));
  }

  isStaticPod(pod: V1Pod): boolean {
    return isStaticPod(pod);
  }

  getMirrorPods(): V1Pod[] {
    return [...this.mirrorByUid.values()];
  }

  getMirrorPodByPod(pod: V1Pod): V1Pod | undefined {
    return this.mirrorByFullName.get(podFullName(pod));
  }

  getPodByMirrorPod(mirror: V1Pod): V1Pod | undefined {
    return this.byFullName.get(podFullName(mirror));
  }

  getUidTranslations(): { podToMirror: Map<string, string>; mirrorToPod: Map<string, string> } {
    const podToMirror = new Map<string, string>();
    const mirrorToPod = new Map<string, string>();
    for (const p of this.byUid.values()) {
      if (!isStaticPod(p)) continue;
      const m = this.getMirrorPodByPod(p);
      const puid = p.metadata?.uid ?? '';
      const muid = m?.metadata?.uid ?? '';
      podToMirror.set(puid, muid);
      if (m) mirrorToPod.set(muid, puid);
    }
    return { podToMirror, mirrorToPod };
  }
}
