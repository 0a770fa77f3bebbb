/** Small builders for pods and runtime statuses in kuberuntime / kubelet tests. */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { ContainerState, ContainerStatus, PodStatus, SandboxStatus } from '../../container/types.ts';
import { hashContainer } from '../../container/hash.ts';

export function container(name: string, extra: Partial<V1Container> = {}): V1Container {
  return { name, image: 'nodelet.local/host:latest', command: ['sh', '-c', 'true'], ...extra };
}

export function makePod(opts: {
  name?: string;
  uid?: string;
  containers?: V1Container[];
  initContainers?: V1Container[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  hostNetwork?: boolean;
  grace?: number;
}): V1Pod {
  const name = opts.name ?? 'web';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: opts.uid ?? `uid-${name}` },
    spec: {
      containers: opts.containers ?? [container('app')],
      ...(opts.initContainers ? { initContainers: opts.initContainers } : {}),
      ...(opts.restartPolicy ? { restartPolicy: opts.restartPolicy } : {}),
      ...(opts.hostNetwork !== undefined ? { hostNetwork: opts.hostNetwork } : {}),
      ...(opts.grace !== undefined ? { terminationGracePeriodSeconds: opts.grace } : {}),
    },
  };
}

export function sandbox(id: string, state: 'ready' | 'notready', attempt = 0, createdAt = 1): SandboxStatus {
  return { id, state, attempt, createdAt, ip: '', additionalIps: [] };
}

export function cstatus(
  c: V1Container,
  state: ContainerState,
  extra: Partial<ContainerStatus> = {},
): ContainerStatus {
  const id = extra.id?.id ?? `${c.name}-${state}-${extra.restartCount ?? 0}`;
  return {
    id: { type: 'fake', id },
    name: c.name,
    state,
    createdAt: 1,
    startedAt: state === 'created' ? 0 : 1,
    finishedAt: state === 'exited' ? 2 : 0,
    exitCode: 0,
    reason: state === 'exited' ? 'Completed' : '',
    message: '',
    image: c.image ?? '',
    imageRef: c.image ?? '',
    imageId: '',
    restartCount: 0,
    hash: hashContainer(c),
    logPath: '',
    ...extra,
  };
}

export function podStatus(pod: V1Pod, sandboxes: SandboxStatus[], containers: ContainerStatus[] = []): PodStatus {
  return {
    uid: pod.metadata?.uid ?? '',
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? '',
    ips: [],
    sandboxStatuses: sandboxes,
    containerStatuses: containers,
  };
}
