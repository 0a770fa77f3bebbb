/** The results cache of one probe type (the kubelet's results.Manager): latest result per container. */
import type { V1Pod } from '@kubernetes/client-node';
import type { ProbeResult, ProbeType, ResultsManager, ResultUpdate } from './types.ts';

export class ResultsCache implements ResultsManager {
  private readonly cache = new Map<string, ProbeResult>();
  private readonly listeners = new Set<(u: ResultUpdate) => void>();

  constructor(readonly probeType: ProbeType) {}

  get(containerId: string): ProbeResult | undefined {
    return this.cache.get(containerId);
  }

  set(containerId: string, result: ProbeResult, pod: V1Pod, containerName: string): void {
    if (this.cache.get(containerId) === result) return;
    this.cache.set(containerId, result);
    const u: ResultUpdate = {
      containerId,
      podUid: pod.metadata?.uid ?? '',
      containerName,
      probeType: this.probeType,
      result,
    };
    for (const l of [...this.listeners]) l(u);
  }

  remove(containerId: string): void {
    this.cache.delete(containerId);
  }

  onUpdate(listener: (u: ResultUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  size(): number {
    return this.cache.size;
  }
}
