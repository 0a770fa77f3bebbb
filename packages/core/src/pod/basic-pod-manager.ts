/**
 * The pod manager: the desired pods, indexed by UID and by full name (namespace/name). Mirror pods (from the
 * API source, annotated kubernetes.io/config.mirror) are kept apart and linked to their static pod by full name.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isMirrorPod, isStaticPod, podNamespacedName, buildPodNamespacedName } from '../api/pod-helpers.ts';
import type { PodManager } from './types.ts';

export class BasicPodManager implements PodManager {
  private readonly byUid = new Map<string, V1Pod>();
  private readonly byName = new Map<string, V1Pod>();
  private readonly mirrorByUid = new Map<string, V1Pod>();
  private readonly mirrorByName = new Map<string, V1Pod>();

  getPods(): V1Pod[] {
    return [...this.byUid.values()];
  }

  getPodByUid(uid: string): V1Pod | undefined {
    return this.byUid.get(uid);
  }

  getPodByName(namespace: string, name: string): V1Pod | undefined {
    return this.byName.get(buildPodNamespacedName(namespace, name));
  }

  setPods(pods: V1Pod[]): void {
    this.byUid.clear();
    this.byName.clear();
    this.mirrorByUid.clear();
    this.mirrorByName.clear();
    for (const p of pods) this.updatePod(p);
  }

  addPod(pod: V1Pod): void {
    this.updatePod(pod);
  }

  updatePod(pod: V1Pod): void {
    const uid = pod.metadata?.uid;
    if (!uid) throw new Error(`pod ${podNamespacedName(pod)} has no UID`);
    const full = podNamespacedName(pod);
    const [uidMap, nameMap] = isMirrorPod(pod) ? [this.mirrorByUid, this.mirrorByName] : [this.byUid, this.byName];
    const prev = uidMap.get(uid);
    if (prev && podNamespacedName(prev) !== full && nameMap.get(podNamespacedName(prev)) === prev) nameMap.delete(podNamespacedName(prev));
    uidMap.set(uid, pod);
    nameMap.set(full, pod);
  }

  removePod(pod: V1Pod): void {
    const uid = pod.metadata?.uid ?? '';
    const [uidMap, nameMap] = isMirrorPod(pod) ? [this.mirrorByUid, this.mirrorByName] : [this.byUid, this.byName];
    const prev = uidMap.get(uid);
    uidMap.delete(uid);
    const full = podNamespacedName(prev ?? pod);
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
    return this.mirrorByName.get(podNamespacedName(pod));
  }

  getPodByMirrorPod(mirror: V1Pod): V1Pod | undefined {
    return this.byName.get(podNamespacedName(mirror));
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
