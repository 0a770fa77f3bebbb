/**
 * generateAPIPodStatus: the pod's V1PodStatus from what the runtime reports (the PodStatus cache), the
 * reason cache and the spec — container statuses (state, lastState, restartCount, ready, started, image,
 * imageID, containerID), phase and conditions.
 */
import type { V1Container, V1ContainerState, V1ContainerStatus, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { formatContainerId, type ContainerStatus, type PodStatus } from '../container/types.ts';
import { generateConditions, getPhase } from '../status/generate.ts';
import { getPodQOS } from '../api/qos.ts';
import type { ReasonCache } from './reason-cache.ts';
import { defaultHostIPs, podIPsOf } from '../api/pod-ips.ts';
import { trimTerminationMessages } from '../kuberuntime/termination-message.ts';
import { ephemeralAsContainer, ephemeralStatus } from '../kuberuntime/ephemeral-containers.ts';

function terminatedState(s: ContainerStatus): V1ContainerState {
  return {
    terminated: {
      exitCode: s.exitCode,
      reason: s.reason || (s.exitCode === 0 ? 'Completed' : 'Error'),
      ...(s.message ? { message: s.message } : {}),
      ...(s.startedAt ? { startedAt: new Date(s.startedAt) } : {}),
      ...(s.finishedAt ? { finishedAt: new Date(s.finishedAt) } : {}),
      containerID: formatContainerId(s.id),
    },
  };
}

function stateOf(s: ContainerStatus): V1ContainerState {
  switch (s.state) {
    case 'running':
      return { running: { startedAt: new Date(s.startedAt || s.createdAt) } };
    case 'exited':
      return terminatedState(s);
    case 'created':
      return { waiting: { reason: 'ContainerCreating' } };
    case 'unknown':
      return { waiting: {} };
  }
}

function containerStatus(
  c: V1Container,
  runtime: PodStatus,
  reasons: ReasonCache,
  defaultReason: string,
  restartPolicy = 'Always',
): V1ContainerStatus {
  const all = runtime.containerStatuses.filter((s) => s.name === c.name);
  const latest = all[0];
  const out: V1ContainerStatus = {
    name: c.name,
    image: c.image ?? '',
    imageID: '',
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: { reason: defaultReason } },
  };
  if (latest) {
    out.restartCount = latest.restartCount;
    out.containerID = formatContainerId(latest.id);
    out.imageID = latest.imageId || latest.imageRef;
    out.state = stateOf(latest);
    out.ready = latest.state === 'running';
    out.started = latest.state === 'running';
    const prev = all[1];
    if (prev && prev.state === 'exited') out.lastState = terminatedState(prev);
  }
  const why = reasons.get(runtime.uid, c.name);
  const sandbox = latest || why ? undefined : reasons.sandboxFailure(runtime.uid);
  if (sandbox?.message) out.state = { waiting: { reason: defaultReason, message: sandbox.message } };
  // As the kubelet: the start failure shows as Waiting only for a container that will be restarted; one that
  // will not (restartPolicy Never, or OnFailure after exit 0) stays Terminated (e.g. StartError, exit 128).
  const willRestart = restartPolicy === 'Always' || (restartPolicy === 'OnFailure' && latest?.exitCode !== 0) || latest?.state !== 'exited';
  if (why && latest?.state !== 'running' && willRestart) {
    if (out.state?.terminated) out.lastState = out.state;
    out.state = { waiting: { reason: why.reason, ...(why.message ? { message: why.message } : {}) } };
  }
  return out;
}

/** Whether the pod's init containers have all completed (so app containers are no longer "PodInitializing"). */
function initDone(pod: V1Pod, runtime: PodStatus): boolean {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;
  const names = new Set((pod.spec?.containers ?? []).map((c) => c.name));
  if (runtime.containerStatuses.some((s) => names.has(s.name))) return true;
  return inits.every((c) => {
    const s = runtime.containerStatuses.find((x) => x.name === c.name);
    return s?.state === 'exited' && s.exitCode === 0;
  });
}

/** Sets `started`/`ready` from probe results (the prober manager's UpdatePodStatus) before conditions are computed. */
export type ProbeStatusFiller = (podUid: string, status: V1PodStatus) => void;

export function generateApiPodStatus(
  pod: V1Pod,
  runtime: PodStatus,
  reasons: ReasonCache,
  podIsTerminal = false,
  probes?: ProbeStatusFiller,
  hostIPs: string[] = defaultHostIPs(),
): V1PodStatus {
  const inits = (pod.spec?.initContainers ?? []).map((c) => containerStatus(c, runtime, reasons, 'PodInitializing'));
  const appReason = initDone(pod, runtime) ? 'ContainerCreating' : 'PodInitializing';
  const apps = (pod.spec?.containers ?? []).map((c) => containerStatus(c, runtime, reasons, appReason, pod.spec?.restartPolicy));
  const ephemerals = (pod.spec?.ephemeralContainers ?? []).map((ec) => ephemeralStatus(containerStatus(ephemeralAsContainer(ec), runtime, reasons, appReason, 'Never')));
  probes?.(runtime.uid || (pod.metadata?.uid ?? ''), { containerStatuses: apps, initContainerStatuses: inits });
  const phase = getPhase(pod, [...inits, ...apps], podIsTerminal);
  const sandboxReady = runtime.sandboxStatuses[0]?.state === 'ready';
  const allStatuses = [...inits, ...apps];
  trimTerminationMessages([...allStatuses, ...ephemerals], allStatuses.length + ephemerals.length);
  const status: V1PodStatus = {
    phase,
    conditions: generateConditions({ ...pod, status: pod.status ?? {} }, allStatuses, phase, sandboxReady),
    qosClass: getPodQOS(pod),
    containerStatuses: apps,
  };
  if (inits.length > 0) status.initContainerStatuses = inits;
  if (ephemerals.length > 0) status.ephemeralContainerStatuses = ephemerals;
  if (hostIPs.length > 0) {
    status.hostIP = hostIPs[0];
    status.hostIPs = hostIPs.map((ip) => ({ ip }));
  }
  const ips = podIPsOf(pod, runtime.ips, hostIPs);
  if (ips.length > 0) {
    status.podIP = ips[0];
    status.podIPs = ips.map((ip) => ({ ip }));
  }
  return status;
}
