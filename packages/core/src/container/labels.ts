/** Label and annotation keys the kubelet puts on sandboxes and containers (so a restarted kubelet can rebuild its view). */
export const POD_NAME_LABEL = 'io.kubernetes.pod.name';
export const POD_NAMESPACE_LABEL = 'io.kubernetes.pod.namespace';
export const POD_UID_LABEL = 'io.kubernetes.pod.uid';
export const CONTAINER_NAME_LABEL = 'io.kubernetes.container.name';
export const CONTAINER_TYPE_LABEL = 'io.kubernetes.container.type';
export const KUBERNETES_MANAGED_LABEL = 'io.kubernetes.managed';

export const CONTAINER_HASH_ANNOTATION = 'io.kubernetes.container.hash';
export const CONTAINER_RESTART_COUNT_ANNOTATION = 'io.kubernetes.container.restartCount';
export const CONTAINER_TERMINATION_MESSAGE_PATH_ANNOTATION = 'io.kubernetes.container.terminationMessagePath';
export const CONTAINER_TERMINATION_MESSAGE_POLICY_ANNOTATION = 'io.kubernetes.container.terminationMessagePolicy';
export const POD_TERMINATION_GRACE_PERIOD_ANNOTATION = 'io.kubernetes.pod.terminationGracePeriod';
export const CONTAINER_PORTS_ANNOTATION = 'io.kubernetes.container.ports';
export const POD_DELETION_GRACE_PERIOD_ANNOTATION = 'io.kubernetes.pod.deletionGracePeriod';

export interface PodLabelInfo {
  name: string;
  namespace: string;
  uid: string;
}

export function podInfoFromLabels(labels: Record<string, string>): PodLabelInfo {
  return {
    name: labels[POD_NAME_LABEL] ?? '',
    namespace: labels[POD_NAMESPACE_LABEL] ?? '',
    uid: labels[POD_UID_LABEL] ?? '',
  };
}

export function restartCountFromAnnotations(a: Record<string, string>): number {
  const n = Number.parseInt(a[CONTAINER_RESTART_COUNT_ANNOTATION] ?? '0', 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}
