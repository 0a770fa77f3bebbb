/**
 * The mock agent's resources.get: a 4-CPU, 2-NUMA-node machine with the static CPU policy (cpu 0 reserved, cpus
 * 2-3 exclusive to the world's "web" pod), the Static memory policy, and two example.com/fake devices, one
 * held by "web" and the other unhealthy.
 */
import type { ContainerRef, NodeResourcesView } from '@nodelet/agent/types';
import type { MockWorld } from './mock-world.ts';

const GiB = 1024 ** 3;

export function mockResources(world: MockWorld): NodeResourcesView {
  const web = world.pods().find((p) => p.metadata?.name === 'web');
  const pod: ContainerRef['pod'] = { namespace: web?.metadata?.namespace ?? 'default', name: web?.metadata?.name ?? 'web', uid: web?.metadata?.uid ?? 'uid-web' };
  return {
    cpu: { policy: 'static', online: '0-3', shared: '0-1', reserved: '0', exclusive: [{ pod, container: 'nginx', cpus: '2-3' }] },
    memory: {
      policy: 'Static',
      nodes: [
        { node: 0, total: 8 * GiB, reserved: GiB, allocatable: 7 * GiB, assigned: 2 * GiB, assignments: [{ pod, container: 'nginx', bytes: 2 * GiB }] },
        { node: 1, total: 8 * GiB, reserved: 0, allocatable: 8 * GiB, assigned: 0, assignments: [] },
      ],
    },
    devices: [
      {
        resource: 'example.com/fake',
        connected: true,
        capacity: 2,
        allocatable: 1,
        devices: [
          { id: 'fake-0', healthy: true, numaNodes: [0], holder: { pod, container: 'nginx' } },
          { id: 'fake-1', healthy: false, numaNodes: [1] },
        ],
      },
    ],
  };
}
