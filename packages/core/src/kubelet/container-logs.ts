/**
 * containerLogs: pod → container → which instance → CRI log file, as the kubelet's GetKubeletContainerLogs. The
 * instance comes from the pod's status (the status manager's, else the pod's own), as validateContainerLogStatus
 * picks it (kubelet_pods.go): `previous` → lastState.terminated.containerID; else the running container, the
 * terminated one (or its lastState when the next never started), lastState.terminated, or a "waiting to start"
 * refusal with the waiting reason. So `--previous` of a crash-looping container is the instance that just died,
 * not an older one the container GC may have removed.
 */
import type { V1ContainerStatus, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { PodStatusCache } from '../container/types.ts';
import type { Clock } from '../util/clock.ts';
import { readCriLog } from '../kuberuntime/logs/read-cri-log.ts';
import { runtimeContainerId } from '../prober/types.ts';
import type { ContainerLogOptions, LogsResult } from './types.ts';

export interface LogsDeps {
  clock: Clock;
  /** The runtime's instances (their log paths). */
  cache: PodStatusCache;
  findPod(namespace: string, name: string): V1Pod | undefined;
  /** The status manager's status of the pod, when it has one. */
  podStatus?(uid: string): V1PodStatus | undefined;
  /** Fresh status of one container instance (is it still running?). */
  isRunning(uid: string, containerId: string): Promise<boolean>;
}

type Picked = { ok: true; id: string } | { ok: false; reason: 'NoPreviousContainer' | 'LogNotAvailable'; message: string };

/** validateContainerLogStatus: the container ID whose log is served, or the kubelet's refusal. */
export function pickLogContainer(status: V1PodStatus | undefined, container: string, podName: string, previous: boolean): Picked {
  const all: V1ContainerStatus[] = [...(status?.containerStatuses ?? []), ...(status?.initContainerStatuses ?? []), ...((status?.ephemeralContainerStatuses ?? []) as V1ContainerStatus[])];
  const cs = all.find((s) => s.name === container);
  const unavailable = (message: string): Picked => ({ ok: false, reason: 'LogNotAvailable', message });
  if (!cs) return unavailable(`container "${container}" in pod "${podName}" is not available`);
  const last = cs.lastState?.terminated;
  const { waiting, running, terminated } = cs.state ?? {};
  if (previous) {
    if (!last?.containerID) return { ok: false, reason: 'NoPreviousContainer', message: `previous terminated container "${container}" in pod "${podName}" not found` };
    return { ok: true, id: last.containerID };
  }
  if (running) return cs.containerID ? { ok: true, id: cs.containerID } : unavailable(`container "${container}" in pod "${podName}" is waiting to start - no logs yet`);
  if (terminated) {
    if (terminated.containerID) return { ok: true, id: terminated.containerID };
    if (last?.containerID) return { ok: true, id: last.containerID };
    return unavailable(`container "${container}" in pod "${podName}" is terminated`);
  }
  if (last) return last.containerID ? { ok: true, id: last.containerID } : unavailable(`container "${container}" in pod "${podName}" is terminated`);
  if (waiting) {
    if (waiting.reason === 'ErrImagePull') return unavailable(`container "${container}" in pod "${podName}" is waiting to start: image can't be pulled`);
    if (waiting.reason === 'ImagePullBackOff') return unavailable(`container "${container}" in pod "${podName}" is waiting to start: trying and failing to pull image`);
    return unavailable(`container "${container}" in pod "${podName}" is waiting to start: ${waiting.reason ?? ''}`);
  }
  return unavailable(`container "${container}" in pod "${podName}" is waiting to start - no logs yet`);
}

export async function containerLogs(
  deps: LogsDeps,
  namespace: string,
  podName: string,
  container: string,
  opts: ContainerLogOptions,
  write: (chunk: string) => void,
  signal: AbortSignal,
): Promise<LogsResult> {
  const pod = deps.findPod(namespace, podName);
  if (!pod) return { ok: false, reason: 'PodNotFound', message: `pod "${podName}" in namespace "${namespace}" not found` };
  const uid = pod.metadata?.uid ?? '';
  const spec = pod.spec;
  const inSpec = [...(spec?.initContainers ?? []), ...(spec?.containers ?? []), ...(spec?.ephemeralContainers ?? [])].some((c) => c.name === container);
  if (!inSpec) return { ok: false, reason: 'ContainerNotFound', message: `container ${container} is not valid for pod ${podName}` };
  const picked = pickLogContainer(deps.podStatus?.(uid) ?? pod.status, container, podName, Boolean(opts.previous));
  if (!picked.ok) return picked;
  const bare = runtimeContainerId(picked.id);
  const target = deps.cache.get(uid).status.containerStatuses.find((s) => s.id.id === bare);
  if (!target) return { ok: false, reason: 'LogNotAvailable', message: `failed to get container status "${bare}": the runtime no longer has container ${bare} of "${container}"` };
  if (!target.logPath) return { ok: false, reason: 'LogNotAvailable', message: `container "${container}" in pod "${podName}" has no log file` };
  const { previous: _p, ...rest } = opts;
  const r = await readCriLog(target.logPath, rest, write, signal, {
    clock: deps.clock,
    isDone: async () => !(await deps.isRunning(uid, target.id.id)),
  });
  if (!r.ok) return { ok: false, reason: 'LogNotAvailable', message: r.message };
  return { ok: true };
}
