/**
 * The device manager's NUMA hints with the kubelet's cases (devicemanager/topology_hints_test.go v1.28
 * TestGetTopologyHints), and Allocate through the topology manager putting a container's devices on its NUMA node.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../../util/clock.ts';
import { nullLogger } from '../../util/logger.ts';
import { TopologyManager } from '../topologymanager/manager.ts';
import { formatHint, type TopologyHints } from '../topologymanager/types.ts';
import { DeviceManager } from './manager.ts';
import { DeviceHintProvider } from './topology-hints.ts';
import { idsOf } from './pod-devices.ts';

function setup(devices: Record<string, Array<[id: string, numa: number | null]>>, policy = 'none') {
  const dm = new DeviceManager({ clock: new FakeClock(), logger: nullLogger, dir: '/nonexistent' });
  for (const [resource, list] of Object.entries(devices)) {
    dm.state.connected(resource);
    dm.state.update(resource, list.map(([id, numa]) => ({ id, healthy: true, numaNodes: numa === null ? [] : [numa] })));
  }
  const tm = TopologyManager.create({ policy, numaNodes: [{ id: 0 }, { id: 1 }], logger: nullLogger });
  const active: V1Pod[] = [];
  const hp = new DeviceHintProvider(dm, { numaNodes: [0, 1], affinity: tm, activePods: () => active });
  tm.addHintProvider(hp);
  return { dm, tm, hp, active };
}

function pod(uid: string, requests: Record<string, number>): V1Pod {
  const limits = Object.fromEntries(Object.entries(requests).map(([k, v]) => [k, String(v)]));
  return { metadata: { uid, name: uid, namespace: 'default' }, spec: { containers: [{ name: 'fakeContainer', image: 'x', resources: { limits } }] } };
}

const show = (h: TopologyHints) => Object.fromEntries(Object.entries(h ?? {}).map(([r, l]) => [r, l === null ? null : l.map(formatHint)]));

test('TestGetTopologyHints: hints per NUMA mask, preferred = the fewest nodes', () => {
  const cases: Array<[string, Record<string, Array<[string, number | null]>>, Record<string, number>, Record<string, string[] | null>]> = [
    ['Single Request, no alignment', { testdevice: [['Dev1', null], ['Dev2', null]] }, { testdevice: 1 }, { testdevice: null }],
    ['Single Request, only one with alignment', { testdevice: [['Dev1', null], ['Dev2', 1]] }, { testdevice: 1 }, { testdevice: ['{10 true}', '{11 false}'] }],
    ['Single Request, one device per socket', { testdevice: [['Dev1', 0], ['Dev2', 1]] }, { testdevice: 1 }, { testdevice: ['{01 true}', '{10 true}', '{11 false}'] }],
    ['Request for 2, one device per socket', { testdevice: [['Dev1', 0], ['Dev2', 1]] }, { testdevice: 2 }, { testdevice: ['{11 true}'] }],
    ['Request for 2, 2 devices per socket', { testdevice: [['Dev1', 0], ['Dev2', 1], ['Dev3', 0], ['Dev4', 1]] }, { testdevice: 2 }, { testdevice: ['{01 true}', '{10 true}', '{11 false}'] }],
    [
      '2 device types, mixed configuration',
      { testdevice1: [['Dev1', 0], ['Dev2', 1], ['Dev3', 0], ['Dev4', 1]], testdevice2: [['Dev1', 0]] },
      { testdevice1: 2, testdevice2: 1 },
      { testdevice1: ['{01 true}', '{10 true}', '{11 false}'], testdevice2: ['{01 true}', '{11 false}'] },
    ],
    ['Single device type, more requested than available', { testdevice: [['Dev1', 0], ['Dev2', 0], ['Dev3', 1], ['Dev4', 1]] }, { testdevice: 6 }, { testdevice: [] }],
  ];
  for (const [name, devices, req, expected] of cases) {
    const { hp } = setup(devices);
    const p = pod('pod', req);
    assert.deepEqual(show(hp.getTopologyHints(p, p.spec!.containers[0]!)), expected, name);
  }
});

test('"Request for 2, optimal on 1 NUMA node, forced cross-NUMA": another container of the pod holds Dev1 and Dev2', () => {
  const { dm, hp } = setup({ testdevice: [['Dev1', 0], ['Dev2', 1], ['Dev3', 0], ['Dev4', 1]] });
  dm.state.pods.insert({ podUid: 'pod', containerName: 'fakeOtherContainer', resource: 'testdevice', deviceIds: { '0': ['Dev1'], '1': ['Dev2'] } });
  const p = pod('pod', { testdevice: 2 });
  assert.deepEqual(show(hp.getTopologyHints(p, p.spec!.containers[0]!)), { testdevice: ['{11 false}'] });
});

test('TestTopologyAlignedAllocation: the devices on the hinted NUMA nodes are taken first', () => {
  const cases: Array<[string, Array<[string, number]>, number, number[], Record<number, number>]> = [
    ['Request for 2, socket 1', [['Dev1', 0], ['Dev2', 1], ['Dev3', 0], ['Dev4', 1]], 2, [1], { 1: 2 }],
    ['Request for 4, unsatisfiable, prefer socket 0', [['Dev1', 0], ['Dev2', 1], ['Dev3', 0], ['Dev4', 1], ['Dev5', 0], ['Dev6', 1]], 4, [0], { 0: 3, 1: 1 }],
    ['Request for 4, unsatisfiable, prefer socket 1', [['Dev1', 0], ['Dev2', 1], ['Dev3', 0], ['Dev4', 1], ['Dev5', 0], ['Dev6', 1]], 4, [1], { 0: 1, 1: 3 }],
    ['Request for 4, multisocket', [['Dev1', 0], ['Dev2', 1], ['Dev3', 2], ['Dev4', 3], ['Dev5', 0], ['Dev6', 1], ['Dev7', 2], ['Dev8', 3]], 4, [1, 3], { 1: 2, 3: 2 }],
  ];
  for (const [name, devices, request, hint, expected] of cases) {
    const { dm } = setup({ resource: devices });
    dm.state.preferredNuma = () => hint;
    assert.ok(dm.state.reserve('podUID', 'containerName', 'resource', request).ok, name);
    const alignment: Record<number, number> = {};
    for (const [numa, ids] of Object.entries(dm.state.pods.get('podUID', 'containerName', 'resource')!.deviceIds)) alignment[Number(numa)] = ids.length;
    assert.deepEqual(alignment, expected, name);
  }
});

test('devices already allocated to the container: hints regenerated from them, or none when the request changed', () => {
  // "Single device type, all already allocated to container".
  const { dm, hp } = setup({ testdevice: [['Dev1', 0], ['Dev2', 0]] });
  const p = pod('pod', { testdevice: 2 });
  assert.deepEqual(dm.admit(p, []), { admit: true });
  assert.deepEqual(show(hp.getTopologyHints(p, p.spec!.containers[0]!)), { testdevice: ['{01 true}', '{11 false}'] });
  // "Single device type, less already allocated to container than requested" / "... more ... than requested".
  for (const n of [4, 1]) {
    const q = pod('pod', { testdevice: n });
    assert.deepEqual(show(hp.getTopologyHints(q, q.spec!.containers[0]!)), { testdevice: [] }, `request ${n}`);
  }
});

test('single-numa-node: Allocate takes the devices of the container\'s NUMA node; a request across nodes is TopologyAffinityError', () => {
  const { dm, tm, active } = setup({ testdevice: [['Dev1', 0], ['Dev2', 1], ['Dev3', 1]] }, 'single-numa-node');
  const a = pod('a', { testdevice: 2 });
  assert.deepEqual(tm.admit(a), { admit: true });
  active.push(a);
  assert.deepEqual(idsOf(dm.state.pods.get('a', 'fakeContainer', 'testdevice')!), ['Dev2', 'Dev3']);
  assert.deepEqual(tm.admit(pod('b', { testdevice: 2 })), { admit: false, reason: 'TopologyAffinityError', message: 'Resources cannot be allocated with Topology locality' });
  const c = pod('c', { testdevice: 1 });
  assert.deepEqual(tm.admit(c), { admit: true });
  active.push(c);
  assert.deepEqual(idsOf(dm.state.pods.get('c', 'fakeContainer', 'testdevice')!), ['Dev1']);
  assert.deepEqual(idsOf(dm.state.pods.get('a', 'fakeContainer', 'testdevice')!), ['Dev2', 'Dev3']);
  // Out of devices: the device manager's own refusal, its reason kept.
  assert.deepEqual(tm.admit(pod('d', { testdevice: 1 })).admit, false);
});
