import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1NodeCondition } from '@kubernetes/client-node';
import { buildNodeStatus, initialNode, nodeStatusChanged, setConditions } from './setters.ts';
import type { NodeStatusInput } from './types.ts';

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);

function input(over: Partial<NodeStatusInput> = {}): NodeStatusInput {
  return {
    nodeName: 'n1',
    hostname: 'n1',
    nodeIP: '10.0.0.5',
    kubeletPort: 10250,
    kubeletVersion: 'v1.34.0-nodelet',
    maxPods: 110,
    machine: {
      cpuCores: 4,
      memoryBytes: 8 * 1024 ** 3,
      ephemeralStorageBytes: 100 * 1024 ** 3,
      hugepages: { 'hugepages-2Mi': 0, 'hugepages-1Gi': 0 },
      machineID: 'mid',
      systemUUID: 'uuid',
      bootID: 'boot',
      kernelVersion: '6.1.0',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
    },
    runtime: { name: 'nodelet-runtime', version: '0.1.0' },
    readiness: { ready: true, message: '' },
    pressure: { memory: false, disk: false, pid: false },
    images: [],
    arch: 'amd64',
    ...over,
  };
}

const brief = (cs: V1NodeCondition[]) => cs.map((c) => `${c.type}=${c.status}/${c.reason}`);

describe('node status setters', () => {
  it('fills capacity, allocatable (minus hard eviction), addresses, nodeInfo, endpoints', () => {
    const { status } = buildNodeStatus(undefined, input(), T0);
    assert.deepEqual(status.capacity, { cpu: '4', memory: '8388608Ki', 'ephemeral-storage': '104857600Ki', pods: '110', 'hugepages-2Mi': '0', 'hugepages-1Gi': '0' });
    assert.equal(status.allocatable?.memory, `${8 * 1024 * 1024 - 100 * 1024}Ki`);
    assert.equal(status.allocatable?.['ephemeral-storage'], String(Math.floor(100 * 1024 ** 3 * 0.9)));
    assert.deepEqual(status.addresses, [{ type: 'InternalIP', address: '10.0.0.5' }, { type: 'Hostname', address: 'n1' }]);
    assert.equal(status.nodeInfo?.containerRuntimeVersion, 'nodelet-runtime://0.1.0');
    assert.equal(status.nodeInfo?.architecture, 'amd64');
    assert.equal(status.nodeInfo?.operatingSystem, 'linux');
    assert.equal(status.daemonEndpoints?.kubeletEndpoint?.Port, 10250);
  });

  // The kubelet's MachineInfo setter with devicePluginResourceCapacityFunc (nodestatus/setters.go).
  it('device plugin resources: capacity all devices, allocatable the healthy ones, removed resources 0', () => {
    const devicePlugins = { capacity: { 'example.com/foo': 3 }, allocatable: { 'example.com/foo': 2 }, removed: ['example.com/gone'] };
    const { status } = buildNodeStatus(undefined, input({ devicePlugins }), T0);
    assert.equal(status.capacity?.['example.com/foo'], '3');
    assert.equal(status.allocatable?.['example.com/foo'], '2');
    assert.equal(status.capacity?.['example.com/gone'], '0');
    assert.equal(status.allocatable?.['example.com/gone'], '0');
  });

  it('keeps the 50 biggest images, biggest first', () => {
    const images = Array.from({ length: 60 }, (_, i) => ({ names: [`img${i}`], sizeBytes: i }));
    const { status } = buildNodeStatus(undefined, input({ images }), T0);
    assert.equal(status.images?.length, 50);
    assert.deepEqual(status.images?.[0], { names: ['img59'], sizeBytes: 59 });
    assert.equal(status.images?.[49]?.sizeBytes, 10);
  });

  it('registers with the kubelet labels', () => {
    const { node, events } = initialNode(input(), { tier: 'a' }, T0);
    assert.equal(node.metadata?.labels?.['kubernetes.io/hostname'], 'n1');
    assert.equal(node.metadata?.labels?.['kubernetes.io/os'], 'linux');
    assert.equal(node.metadata?.labels?.['kubernetes.io/arch'], 'amd64');
    assert.equal(node.metadata?.labels?.tier, 'a');
    assert.deepEqual(events.map((e) => e.reason), ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']);
  });

  const transitions: Array<{ name: string; from: Partial<NodeStatusInput>; to: Partial<NodeStatusInput>; conds: string[]; events: string[]; message?: string }> = [
    { name: 'steady ready: no events, transition kept', from: {}, to: {}, conds: ['MemoryPressure=False/KubeletHasSufficientMemory', 'DiskPressure=False/KubeletHasNoDiskPressure', 'PIDPressure=False/KubeletHasSufficientPID', 'Ready=True/KubeletReady'], events: [] },
    {
      name: 'runtime down → NotReady with its message',
      from: {},
      to: { readiness: { ready: false, message: 'container runtime is down' } },
      conds: ['MemoryPressure=False/KubeletHasSufficientMemory', 'DiskPressure=False/KubeletHasNoDiskPressure', 'PIDPressure=False/KubeletHasSufficientPID', 'Ready=False/KubeletNotReady'],
      events: ['NodeNotReady'],
      message: 'container runtime is down',
    },
    {
      name: 'memory and pid pressure',
      from: {},
      to: { pressure: { memory: true, disk: false, pid: true } },
      conds: ['MemoryPressure=True/KubeletHasInsufficientMemory', 'DiskPressure=False/KubeletHasNoDiskPressure', 'PIDPressure=True/KubeletHasInsufficientPID', 'Ready=True/KubeletReady'],
      events: ['NodeHasInsufficientMemory', 'NodeHasInsufficientPID'],
    },
    {
      name: 'disk pressure',
      from: {},
      to: { pressure: { memory: false, disk: true, pid: false } },
      conds: ['MemoryPressure=False/KubeletHasSufficientMemory', 'DiskPressure=True/KubeletHasDiskPressure', 'PIDPressure=False/KubeletHasSufficientPID', 'Ready=True/KubeletReady'],
      events: ['NodeHasDiskPressure'],
    },
    {
      name: 'back to ready',
      from: { readiness: { ready: false, message: 'PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s' } },
      to: {},
      conds: ['MemoryPressure=False/KubeletHasSufficientMemory', 'DiskPressure=False/KubeletHasNoDiskPressure', 'PIDPressure=False/KubeletHasSufficientPID', 'Ready=True/KubeletReady'],
      events: ['NodeReady'],
      message: 'kubelet is posting ready status',
    },
  ];
  for (const t of transitions) {
    it(`conditions: ${t.name}`, () => {
      const first = setConditions(undefined, input(t.from), T0).conditions;
      const T1 = T0 + 10_000;
      const { conditions, events } = setConditions(first, input(t.to), T1);
      assert.deepEqual(brief(conditions), t.conds);
      assert.deepEqual(events.map((e) => e.reason), t.events);
      for (const c of conditions) {
        assert.equal(new Date(c.lastHeartbeatTime!).getTime(), T1, `${c.type} heartbeat`);
        const flipped = first.find((f) => f.type === c.type)?.status !== c.status;
        assert.equal(new Date(c.lastTransitionTime!).getTime(), flipped ? T1 : T0, `${c.type} transition`);
      }
      if (t.message) assert.equal(conditions.find((c) => c.type === 'Ready')?.message, t.message);
      for (const e of events) assert.equal(e.message, `Node n1 status is now: ${e.reason}`);
    });
  }

  it('nodeStatusChanged ignores heartbeats but not transitions, readiness or capacity', () => {
    const a = buildNodeStatus(undefined, input(), T0).status;
    const later = buildNodeStatus(a, input(), T0 + 10_000).status;
    assert.equal(nodeStatusChanged(JSON.parse(JSON.stringify(a)), later), false);
    assert.equal(nodeStatusChanged(a, buildNodeStatus(a, input({ readiness: { ready: false, message: 'x' } }), T0 + 10_000).status), true);
    assert.equal(nodeStatusChanged(a, buildNodeStatus(a, input({ maxPods: 10 }), T0 + 10_000).status), true);
  });
});
