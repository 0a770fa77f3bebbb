/**
 * A scripted container Runtime for PLEG / pod-worker tests: set `pods` and `statuses`, read `calls`. A pod
 * without an entry in `statuses` reports the status its `pods` listing implies.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { emptyPodStatus, type KillPodOptions, type PodStatus, type PodSyncResult, type Runtime, type RuntimePod } from '../types.ts';

export class FakeContainerRuntime implements Runtime {
  readonly type = 'fake';
  pods: RuntimePod[] = [];
  statuses = new Map<string, PodStatus>();
  failGetPods: Error | undefined;
  failStatus = new Map<string, Error>();
  readonly calls: string[] = [];

  async getPods(_all: boolean): Promise<RuntimePod[]> {
    this.calls.push('getPods');
    if (this.failGetPods) throw this.failGetPods;
    return structuredClone(this.pods);
  }

  async getPodStatus(uid: string, name: string, namespace: string): Promise<PodStatus> {
    this.calls.push(`getPodStatus ${uid}`);
    const err = this.failStatus.get(uid);
    if (err) throw err;
    return structuredClone(this.statuses.get(uid) ?? this.statusFromListing(uid) ?? emptyPodStatus(uid, name, namespace));
  }

  private statusFromListing(uid: string): PodStatus | undefined {
    const p = this.pods.find((x) => x.uid === uid);
    if (!p) return undefined;
    return {
      uid,
      name: p.name,
      namespace: p.namespace,
      ips: [],
      sandboxStatuses: p.sandboxes.map((s) => ({ id: s.id.id, state: s.state, createdAt: s.createdAt, attempt: s.attempt, ip: '', additionalIps: [] })),
      containerStatuses: p.containers.map((c) => ({
        ...c,
        startedAt: 0,
        finishedAt: 0,
        exitCode: 0,
        reason: '',
        message: '',
        imageId: c.imageRef,
        restartCount: 0,
        logPath: '',
      })),
    };
  }

  async syncPod(pod: V1Pod, _s: PodStatus): Promise<PodSyncResult> {
    this.calls.push(`syncPod ${pod.metadata?.uid}`);
    return { steps: [] };
  }

  async killPod(_pod: V1Pod | undefined, running: RuntimePod, opts?: KillPodOptions): Promise<PodSyncResult> {
    this.calls.push(`killPod ${running.uid} ${opts?.gracePeriodOverride ?? ''}`.trim());
    return { steps: [] };
  }

  async version(): Promise<{ name: string; version: string; apiVersion: string }> {
    return { name: 'fake', version: '0.0.0', apiVersion: 'v1' };
  }
}
