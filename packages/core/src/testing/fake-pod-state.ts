/**
 * A PodStateProvider for unit tests, as the kubelet's fakePodStateProvider (pkg/kubelet/kuberuntime/
 * fake_kuberuntime_manager.go): pods in `removed` were deleted (termination requested, content removable),
 * pods in `terminated` finished terminating (runtime removable); `terminating` only asks for termination.
 * Every question is recorded in `asked` ("method uid").
 */
import type { PodStateProvider } from '../kubelet/pod-state-provider.ts';

export class FakePodState implements PodStateProvider {
  readonly removed = new Set<string>();
  readonly terminated = new Set<string>();
  readonly terminating = new Set<string>();
  readonly asked: string[] = [];

  isPodTerminationRequested(uid: string): boolean {
    this.asked.push(`isPodTerminationRequested ${uid}`);
    return this.removed.has(uid) || this.terminated.has(uid) || this.terminating.has(uid);
  }

  shouldPodContainersBeTerminating(uid: string): boolean {
    this.asked.push(`shouldPodContainersBeTerminating ${uid}`);
    return this.removed.has(uid) || this.terminated.has(uid) || this.terminating.has(uid);
  }

  shouldPodRuntimeBeRemoved(uid: string): boolean {
    this.asked.push(`shouldPodRuntimeBeRemoved ${uid}`);
    return this.terminated.has(uid);
  }

  shouldPodContentBeRemoved(uid: string): boolean {
    this.asked.push(`shouldPodContentBeRemoved ${uid}`);
    return this.removed.has(uid);
  }
}
