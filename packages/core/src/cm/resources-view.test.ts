/** The Resources page's view (resources-view.ts) over the device manager's state: devices, health, holders. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { DeviceState } from './devicemanager/device-state.ts';
import { allCpus, cpuResourcesView, memoryResourcesView, nodeResourcesView } from './resources-view.ts';

const pods: Record<string, { namespace: string; name: string; uid: string }> = { u1: { namespace: 'default', name: 'web', uid: 'u1' } };
const pod = (uid: string) => pods[uid];

test('without CPU and memory managers: policy none with every CPU shared, policy None, no devices', () => {
  assert.deepEqual(nodeResourcesView({ pod, onlineCpus: 4 }), {
    cpu: { policy: 'none', online: '0-3', shared: '0-3', reserved: '', exclusive: [] },
    memory: { policy: 'None', nodes: [] },
    devices: [],
  });
  assert.deepEqual([allCpus(0), allCpus(1), allCpus(2)], ['', '0', '0-1']);
});

test('devices per resource with health, NUMA nodes and the container holding each; a gone plugin keeps its held devices listed', async () => {
  const clock = new FakeClock();
  const s = new DeviceState(clock, 60_000);
  s.connected('example.com/fake');
  s.update('example.com/fake', [{ id: 'fake-1', healthy: false, numaNodes: [] }, { id: 'fake-0', healthy: true, numaNodes: [0] }]);
  assert.ok(s.reserve('u1', 'c', 'example.com/fake', 1).ok);
  s.pods.insert({ podUid: 'u9', containerName: 'old', resource: 'example.com/gone', deviceIds: { '-1': ['g0'] } });
  const v = nodeResourcesView({ pod, devices: s });
  assert.deepEqual(v.devices, [
    {
      resource: 'example.com/fake', connected: true, capacity: 2, allocatable: 1,
      devices: [
        { id: 'fake-0', healthy: true, numaNodes: [0], holder: { pod: pods.u1, container: 'c' } },
        { id: 'fake-1', healthy: false, numaNodes: [] },
      ],
    },
    { resource: 'example.com/gone', connected: false, capacity: 1, allocatable: 0, devices: [{ id: 'g0', healthy: false, numaNodes: [], holder: { pod: { namespace: '', name: '', uid: 'u9' }, container: 'old' } }] },
  ]);
  s.disconnected('example.com/fake');
  assert.deepEqual(nodeResourcesView({ pod, devices: s }).devices[0]!.devices.map((d) => [d.id, d.healthy]), [['fake-0', false], ['fake-1', false]]);
  assert.equal(nodeResourcesView({ pod, devices: s }).devices[0]!.connected, false);
});

test('the CPU manager snapshot: shared pool, reserved, exclusive CPUs per container by pod name; under none every CPU is shared', () => {
  const set = (list: string) => ({ toString: () => list });
  const snapshot = { policy: 'static', online: set('0-3'), shared: set('0-1'), reserved: set('0'), assignments: new Map([['u9', new Map([['b', set('3')]])], ['u1', new Map([['app', set('2')]])]]) };
  assert.deepEqual(cpuResourcesView(snapshot, 8, pod), {
    policy: 'static', online: '0-3', shared: '0-1', reserved: '0',
    exclusive: [{ pod: { namespace: '', name: '', uid: 'u9' }, container: 'b', cpus: '3' }, { pod: pods.u1, container: 'app', cpus: '2' }],
  });
  assert.deepEqual(cpuResourcesView({ policy: 'none', shared: set(''), assignments: new Map() }, 2, pod), { policy: 'none', online: '0-1', shared: '0-1', reserved: '', exclusive: [] });
});

test('the memory manager snapshot: each NUMA node\'s memory table, the containers\' memory blocks on it', () => {
  const GiB = 1024 ** 3;
  const table = (total: number, reserved: number) => ({ memory: { totalMemSize: total, systemReserved: GiB, allocatable: total - GiB, reserved, free: total - GiB - reserved } });
  const snapshot = {
    policy: 'Static',
    machineState: new Map([[1, { memoryMap: table(8 * GiB, 0) }], [0, { memoryMap: table(8 * GiB, 2 * GiB) }]]),
    assignments: new Map([['u1', new Map([['app', [{ numaAffinity: [0], type: 'memory', size: 2 * GiB }, { numaAffinity: [0], type: 'hugepages-2Mi', size: 4 * 2 ** 20 }]]])]]),
  };
  assert.deepEqual(memoryResourcesView(snapshot, pod), {
    policy: 'Static',
    nodes: [
      { node: 0, total: 8 * GiB, reserved: GiB, allocatable: 7 * GiB, assigned: 2 * GiB, assignments: [{ pod: pods.u1, container: 'app', bytes: 2 * GiB }] },
      { node: 1, total: 8 * GiB, reserved: GiB, allocatable: 7 * GiB, assigned: 0, assignments: [] },
    ],
  });
});
