/** The pod manager: the kubelet's desired pods, indexed by UID and by namespace/name. */
import type { V1Pod } from '@kubernetes/client-node';

export interface PodManager {
  /** Desired (non-mirror) pods, in insertion order. */
  getPods(): V1Pod[];
  getPodByUid(uid: string): V1Pod | undefined;
  getPodByName(namespace: string, name: string): V1Pod | undefined;
  /** Replaces the whole set. */
  setPods(pods: V1Pod[]): void;
  addPod(pod: V1Pod): void;
  updatePod(pod: V1Pod): void;
  removePod(pod: V1Pod): void;
  /** Static pods (config.source file|http). */
  getStaticPods(): V1Pod[];
  isStaticPod(pod: V1Pod): boolean;
  /** Mirror pods (apiserver copies of static pods): bookkeeping only for now. */
  getMirrorPods(): V1Pod[];
  getMirrorPodByPod(pod: V1Pod): V1Pod | undefined;
  getPodByMirrorPod(mirror: V1Pod): V1Pod | undefined;
  /** Static pod UID → mirror pod UID. */
  getUidTranslations(): { podToMirror: Map<string, string>; mirrorToPod: Map<string, string> };
}
