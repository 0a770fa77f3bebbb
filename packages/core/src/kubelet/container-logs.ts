/** containerLogs: resolves pod → container → (previous) instance → CRI log file, with 404-style reasons. */
import type { V1Pod } from '@kubernetes/client-node';
import type { PodStatusCache } from '../container/types.ts';
import type { Clock } from '../util/clock.ts';
import { readCriLog } from '../kuberuntime/logs/read-cri-log.ts';
import type { ContainerLogOptions, LogsResult } from './types.ts';

export interface LogsDeps {
  clock: Clock;
  cache: PodStatusCache;
  findPod(namespace: string, name: string): V1Pod | undefined;
  /** Fresh status of one container instance (is it still running?). */
  isRunning(uid: string, containerId: string): Promise<boolean>;
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
  const inSpec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].some((c) => c.name === container);
  if (!inSpec) return { ok: false, reason: 'ContainerNotFound', message: `container ${container} is not valid for pod ${podName}` };
  const instances = deps.cache.get(uid).status.containerStatuses.filter((s) => s.name === container);
  const target = opts.previous ? instances[1] : instances[0];
  if (!target) {
    if (opts.previous) {
      return { ok: false, reason: 'NoPreviousContainer', message: `previous terminated container "${container}" in pod "${podName}" not found` };
    }
    return { ok: false, reason: 'LogNotAvailable', message: `container "${container}" in pod "${podName}" is waiting to start: ContainerCreating` };
  }
  if (!target.logPath) return { ok: false, reason: 'LogNotAvailable', message: `container "${container}" in pod "${podName}" has no log file` };
  const { previous: _p, ...rest } = opts;
  const r = await readCriLog(target.logPath, rest, write, signal, {
    clock: deps.clock,
    isDone: async () => !(await deps.isRunning(uid, target.id.id)),
  });
  if (!r.ok) return { ok: false, reason: 'LogNotAvailable', message: r.message };
  return { ok: true };
}
