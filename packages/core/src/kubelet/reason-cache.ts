/**
 * The kubelet's reason cache: the last start failure per (pod UID, container name) — CrashLoopBackOff,
 * ErrImagePull, ImagePullBackOff, CreateContainerError... — shown as the container's waiting reason. Also the
 * pod's last sandbox failure (CreatePodSandboxError): the kubelet keeps its containers ContainerCreating; nodelet
 * adds the failure's message to that waiting state, so the status says why.
 */
import type { PodSyncResult } from '../container/types.ts';

export interface ReasonInfo {
  reason: string;
  message: string;
}

export class ReasonCache {
  private readonly byPod = new Map<string, Map<string, ReasonInfo>>();
  private readonly sandbox = new Map<string, ReasonInfo>();

  /** Start-container steps: a failure records its reason, a success clears it; the same for the sandbox step. */
  update(uid: string, result: PodSyncResult): void {
    for (const s of result.steps) {
      if (s.action === 'CreatePodSandbox') {
        if (s.error) this.sandbox.set(uid, { reason: s.error, message: s.message ?? '' });
        else this.sandbox.delete(uid);
      }
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

  /** The pod's last sandbox failure, until a sandbox is created. */
  sandboxFailure(uid: string): ReasonInfo | undefined {
    return this.sandbox.get(uid);
  }

  remove(uid: string): void {
    this.byPod.delete(uid);
    this.sandbox.delete(uid);
  }

  uids(): string[] {
    return [...new Set([...this.byPod.keys(), ...this.sandbox.keys()])];
  }
}
