/** The runtime's pods as V1Pods (GET /runningpods/): names, UID, containers with name, image and ID. */
import type { V1Pod } from '@kubernetes/client-node';
import { formatContainerId, type RuntimePod } from '../container/types.ts';

export function runningPodsAsV1(pods: RuntimePod[]): V1Pod[] {
  return pods.map((p) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: p.name, namespace: p.namespace, uid: p.uid },
    spec: { containers: p.containers.map((c) => ({ name: c.name, image: c.image })) },
    status: {
      containerStatuses: p.containers.map((c) => ({
        name: c.name,
        image: c.image,
        imageID: c.imageRef,
        containerID: formatContainerId(c.id),
        ready: c.state === 'running',
        restartCount: 0,
        state: c.state === 'running' ? { running: {} } : c.state === 'exited' ? { terminated: { exitCode: 0 } } : { waiting: {} },
      })),
    },
  }));
}
