/** The pod phase from its container statuses, as the kubelet's getPhase. */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import type { PodPhase } from '../api/types.ts';
import { isRestartableInitContainer, isStaticPod } from '../api/pod-helpers.ts';

interface Counters {
  pendingInit: number;
  failedInit: number;
  unknown: number;
  running: number;
  waiting: number;
  stopped: number;
  succeeded: number;
}

function countInit(pod: V1Pod, info: V1ContainerStatus[], n: Counters): void {
  for (const c of pod.spec?.initContainers ?? []) {
    const s = info.find((x) => x.name === c.name);
    if (isRestartableInitContainer(c)) {
      if (!s) n.unknown++;
      else if (s.state?.running) {
        if (s.started !== true) n.pendingInit++;
        n.running++;
      } else if (s.state?.terminated) {
        // terminated sidecars do not count
      } else if (s.state?.waiting) {
        if (!s.lastState?.terminated) {
          n.pendingInit++;
          n.waiting++;
        }
      } else {
        n.pendingInit++;
        n.unknown++;
      }
      continue;
    }
    if (!s) n.pendingInit++;
    else if (s.state?.running) n.pendingInit++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) n.failedInit++;
    } else if (s.state?.waiting && s.lastState?.terminated) {
      if (s.lastState.terminated.exitCode !== 0) n.failedInit++;
    } else n.pendingInit++;
  }
}

function countApp(pod: V1Pod, info: V1ContainerStatus[], n: Counters): void {
  for (const c of pod.spec?.containers ?? []) {
    const s = info.find((x) => x.name === c.name);
    if (!s) n.unknown++;
    else if (s.state?.running) n.running++;
    else if (s.state?.terminated) {
      n.stopped++;
      if (s.state.terminated.exitCode === 0) n.succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) n.stopped++;
      else n.waiting++;
    } else n.unknown++;
  }
}

function anyRegularStarted(pod: V1Pod, info: V1ContainerStatus[]): boolean {
  const names = new Set((pod.spec?.containers ?? []).map((c) => c.name));
  return info.some((s) => names.has(s.name) && (s.state?.running !== undefined || s.state?.terminated !== undefined));
}

/**
 * @param info init and app container statuses together
 * @param podIsTerminal the pod worker decided the pod is done (no restarts will follow)
 */
export function getPhase(pod: V1Pod, info: V1ContainerStatus[], podIsTerminal: boolean): PodPhase {
  const n: Counters = { pendingInit: 0, failedInit: 0, unknown: 0, running: 0, waiting: 0, stopped: 0, succeeded: 0 };
  countInit(pod, info, n);
  countApp(pod, info, n);
  const policy = pod.spec?.restartPolicy ?? 'Always';
  if (n.failedInit > 0 && policy === 'Never') return 'Failed';
  if ((n.pendingInit > 0 && !anyRegularStarted(pod, info)) || n.waiting > 0) return 'Pending';
  if (n.running > 0 && n.unknown === 0) return 'Running';
  if (n.running === 0 && n.stopped > 0 && n.unknown === 0) {
    if (podIsTerminal && !isStaticPod(pod)) return n.stopped === n.succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (n.stopped === n.succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}
