/**
 * The kubelet's reason cache: the last start failure per (pod UID, container name) — CrashLoopBackOff,
 * ErrImagePull, ImagePullBackOff, CreateContainerError... — shown as the container's waiting reason.
 */
import type { PodSyncResult } from '../container/types.ts';

export interface ReasonInfo {
  reason: string;
  message: string;
}

export class ReasonCache {
  private readonly byPod = new Map<string, Map<string, ReasonInfo>>();

  /** Start-container steps: a failure records its reason, a success clears it. */
  update(uid: string, result: PodSyncResult): void {
    for (const s of result.steps) {
      if (s.action !== 'StartContainer' && s.action !== 'InitContainer') continue;
      if (s.error) this.set(uid, s.target, { reason: s.error, message: s.message ?? '' });
      else this.byPod.get(uid)?.delete(s.target);
    }
  }

  set(uid: string, name: string, info: ReasonInfo): void {
    let m = this.byPod.get(uid);
    if (!m) {
      m = new Map();
      this.byPod.set(uid, m);
    }
    m.set(name, info);
  }

  get(uid: string, name: string): ReasonInfo | undefined {
    return this.byPod.get(uid)?.get(name);
  }

  remove(uid: string): void {
    this.byPod.delete(uid);
  }

  uids(): string[] {
    return [...this.byPod.keys()];
  }
}
