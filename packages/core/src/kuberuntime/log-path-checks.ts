/**
 * Pod fields the kubelet puts into host paths: the pod's log directory `<podLogsDir>/<namespace>_<name>_<uid>`
 * and the container's log `<pod log dir>/<container name>/<restart count>.log`. Whatever validated the pod
 * before (an API server, the static pod sources), each must be a safe single path element here, so a pod an
 * API server let through can never make the kubelet write outside its log directory: the pod identity as the
 * pod config checks it for every source (identityErrors), the container name a DNS-1123 label (as the API
 * server's ValidatePod). Errors are field errors; empty when safe.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { identityErrors, validateDnsLabel } from '../config/meta-validation.ts';

/** The pod identity in its log directory's name (namespace defaulted as podLogsDirectory does). */
export function podLogDirErrors(pod: V1Pod): string[] {
  const m = pod.metadata;
  return identityErrors({ name: m?.name, namespace: m?.namespace ?? 'default', uid: m?.uid });
}

/** `spec.containers[i].name` / `spec.initContainers[i].name` of `c` in the pod. */
function nameField(pod: V1Pod, c: V1Container): string {
  const init = pod.spec?.initContainers?.indexOf(c) ?? -1;
  if (init >= 0) return `spec.initContainers[${init}].name`;
  return `spec.containers[${Math.max(0, pod.spec?.containers?.indexOf(c) ?? 0)}].name`;
}

/** The pod's log directory and the container's name below it. */
export function containerLogPathErrors(pod: V1Pod, c: V1Container): string[] {
  const field = nameField(pod, c);
  const name: unknown = c.name;
  const own = typeof name === 'string' && name !== '' ? validateDnsLabel(field, name) : [`${field}: Required value`];
  return [...podLogDirErrors(pod), ...own];
}
