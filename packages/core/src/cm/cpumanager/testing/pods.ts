/** Pods as the kubelet's cpumanager tests build them (policy_static_test.go makePod / makeMultiContainerPod). */
import type { V1Container, V1Pod } from '@kubernetes/client-node';

export interface ContainerSpec {
  name?: string;
  request: string;
  limit: string;
  restartPolicy?: 'Always';
}

function container(name: string, c: ContainerSpec): V1Container {
  return {
    name,
    image: 'busybox',
    resources: { requests: { cpu: c.request, memory: '1G' }, limits: { cpu: c.limit, memory: '1G' } },
    ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}),
  };
}

/** makePod(podUID, containerName, cpuRequest, cpuLimit): one container, 1G memory request and limit. */
export function makePod(podUid: string, containerName: string, cpuRequest: string, cpuLimit: string): V1Pod {
  return { metadata: { uid: podUid, name: podUid, namespace: 'default' }, spec: { containers: [container(containerName, { request: cpuRequest, limit: cpuLimit })] } };
}

/** makeMultiContainerPodWithOptions: init containers initContainer-<i>, app containers appContainer-<i>. */
export function makeMultiContainerPod(init: ContainerSpec[], apps: ContainerSpec[], podUid = 'pod'): V1Pod {
  return {
    metadata: { uid: podUid, name: podUid, namespace: 'default' },
    spec: {
      initContainers: init.map((c, i) => container(c.name ?? `initContainer-${i}`, c)),
      containers: apps.map((c, i) => container(c.name ?? `appContainer-${i}`, c)),
    },
  };
}
