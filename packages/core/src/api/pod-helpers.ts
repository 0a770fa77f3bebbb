/** Small helpers on V1Pod. */
import type { V1Container, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import type { ConfigSource } from './types.ts';

const CONFIG_SOURCE = 'kubernetes.io/config.source';
const CONFIG_MIRROR = 'kubernetes.io/config.mirror';

/** `namespace/name` (types.NamespacedName): the pod manager's and the pod config's key for a pod by name. */
export function podNamespacedName(pod: V1Pod): string {
  return buildPodNamespacedName(pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '');
}

export function buildPodNamespacedName(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The kubelet's pod full name `name_namespace` (kubecontainer.GetPodFullName). */
export function podFullName(pod: V1Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? 'default'}`;
}

export function podUid(pod: V1Pod): string {
  return pod.metadata?.uid ?? '';
}

export function podSource(pod: V1Pod): ConfigSource {
  const s = pod.metadata?.annotations?.[CONFIG_SOURCE];
  return s === 'file' || s === 'http' ? s : 'api';
}

/** A static pod comes from the file or http source. */
export function isStaticPod(pod: V1Pod): boolean {
  return podSource(pod) !== 'api';
}

/** A mirror pod is the apiserver copy of a static pod. */
export function isMirrorPod(pod: V1Pod): boolean {
  return pod.metadata?.annotations?.[CONFIG_MIRROR] !== undefined;
}

/** Static pods and pods with a system priority class are critical (admitted under pressure). */
export function isCriticalPod(pod: V1Pod): boolean {
  if (isStaticPod(pod) || isMirrorPod(pod)) return true;
  const pc = pod.spec?.priorityClassName;
  if (pc === 'system-node-critical' || pc === 'system-cluster-critical') return true;
  return (pod.spec?.priority ?? 0) >= 2_000_000_000;
}

export function getContainer(pod: V1Pod, name: string): { container: V1Container; init: boolean } | undefined {
  const init = pod.spec?.initContainers?.find((c) => c.name === name);
  if (init) return { container: init, init: true };
  const c = pod.spec?.containers?.find((x) => x.name === name);
  return c ? { container: c, init: false } : undefined;
}

/** Every container of the spec: init containers first, then app containers. */
export function allContainers(pod: V1Pod): Array<{ container: V1Container; init: boolean }> {
  return [
    ...(pod.spec?.initContainers ?? []).map((container) => ({ container, init: true })),
    ...(pod.spec?.containers ?? []).map((container) => ({ container, init: false })),
  ];
}

/** An init container with restartPolicy Always (a sidecar). */
export function isRestartableInitContainer(c: V1Container): boolean {
  return c.restartPolicy === 'Always';
}

export function getContainerStatus(statuses: V1ContainerStatus[] | undefined, name: string): V1ContainerStatus | undefined {
  return statuses?.find((s) => s.name === name);
}

/** The name the kubelet gives a static pod: `<name>-<nodeName lowercased>`. */
export function staticPodName(name: string, nodeName: string): string {
  return `${name}-${nodeName.toLowerCase()}`;
}
