/**
 * The topology / memory manager wiring: the topology manager's admit handler in place of the per-manager ones,
 * the memory reservation reservedMemory must match (kubeReserved + systemReserved + evictionHard), cpuset.mems
 * at container creation, the hint dropped at PostStopContainer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { nullLogger } from '../util/logger.ts';
import { TopologyManager } from '../cm/topologymanager/manager.ts';
import { BitMask } from '../cm/topologymanager/bitmask.ts';
import { MemoryManager } from '../cm/memorymanager/manager.ts';
import type { MachineInfo } from '../cm/topology/machine-info.ts';
import type { PodAdmitHandler } from '../lifecycle/types.ts';
import type { KubeletConfig } from './config.ts';
import { combineLifecycles, memoryLifecycle, memoryReservation, withTopologyAdmission } from './topology-wiring.ts';

const h = (name: string): PodAdmitHandler => ({ name, admit: () => ({ admit: true }) });
const gb = 2 ** 30;
const mb = 2 ** 20;

test('withTopologyAdmission: the topology manager stands where the CPU / device handlers stood, before the predicates', () => {
  const tm = TopologyManager.create({ numaNodes: [{ id: 0 }], logger: nullLogger });
  const names = (hs: PodAdmitHandler[]) => hs.map((x) => x.name);
  assert.deepEqual(names(withTopologyAdmission([h('eviction'), h('cpumanager'), h('devicemanager'), h('predicate'), h('sysctl')], tm)), ['eviction', 'topologymanager', 'predicate', 'sysctl']);
  assert.deepEqual(names(withTopologyAdmission([h('eviction'), h('predicate')], tm)), ['eviction', 'topologymanager', 'predicate']);
  assert.deepEqual(names(withTopologyAdmission([h('predicate')], undefined)), ['predicate']);
});

test('memoryReservation: kube + system reserved memory and hugepages, plus evictionHard memory.available (100Mi by default)', () => {
  const machine = { memoryCapacityBytes: 8 * gb } as MachineInfo;
  assert.deepEqual(memoryReservation({ stats: {} } as KubeletConfig, machine), { memory: 100 * mb });
  const config = { stats: { kubeReserved: { memory: '500Mi', 'hugepages-2Mi': '4Mi' }, systemReserved: { memory: '1Gi', cpu: '1' }, evictionHard: { 'memory.available': '1%' } } } as unknown as KubeletConfig;
  assert.deepEqual(memoryReservation(config, machine), { memory: 500 * mb + gb + Math.ceil(0.01 * 8 * gb), 'hugepages-2Mi': 4 * mb });
});

test('memoryLifecycle: cpuset_mems = the NUMA nodes of the container\'s memory, set before CreateContainer', () => {
  const tm = TopologyManager.create({ policy: 'single-numa-node', numaNodes: [{ id: 0 }, { id: 1 }], logger: nullLogger });
  const nodes = [0, 1].map((id) => ({ id, memoryBytes: 4 * gb }));
  const mm = MemoryManager.create({ policy: 'Static', nodes, reservation: { memory: gb }, reservedMemory: [{ numaNode: 0, limits: { memory: '1Gi' } }], affinity: tm, logger: nullLogger });
  mm.start();
  tm.addHintProvider(mm);
  const r = { cpu: '1', memory: '3500Mi' };
  const pod = (uid: string): V1Pod => ({ metadata: { uid, name: uid }, spec: { containers: [{ name: 'app', image: 'x', resources: { limits: r, requests: r } }] } });
  const p = pod('p');
  assert.deepEqual(tm.admit(p), { admit: true });
  const config: { linux?: { resources?: { cpusetMems?: string; cpusetCpus?: string } } } = { linux: { resources: { cpusetCpus: '1' } } };
  const lc = memoryLifecycle(mm, tm);
  lc.preCreateContainer(p, p.spec!.containers[0]!, config as never);
  // Node 0 keeps 1Gi reserved: 3Gi allocatable there, so the 3500Mi container is on node 1.
  assert.deepEqual(config.linux?.resources, { cpusetCpus: '1', cpusetMems: '1' });
  const none = { linux: {} };
  lc.preCreateContainer(pod('other'), p.spec!.containers[0]!, none as never);
  assert.deepEqual(none, { linux: {} });
});

test('PostStopContainer (combineLifecycles, a container about to be removed): the topology manager drops its hint; each lifecycle is called', () => {
  const tm = TopologyManager.create({ policy: 'single-numa-node', numaNodes: [{ id: 0 }, { id: 1 }], logger: nullLogger });
  const mm = MemoryManager.create({ policy: 'None', nodes: [0, 1].map((id) => ({ id, memoryBytes: 4 * gb })), reservation: {}, affinity: tm, logger: nullLogger });
  const p: V1Pod = { metadata: { uid: 'p', name: 'p' }, spec: { containers: [{ name: 'app', image: 'x' }] } };
  const app = p.spec!.containers[0]!;
  // A hint provider preferring node 1 (as a device on node 1 would).
  tm.addHintProvider({ getTopologyHints: () => ({ dev: [{ numaNodeAffinity: BitMask.of(1), preferred: true }] }), getPodTopologyHints: () => ({}), allocate: () => undefined });
  assert.deepEqual(tm.admit(p), { admit: true });
  const recorded: string[] = [];
  const lc = combineLifecycles([memoryLifecycle(mm, tm), { preCreateContainer: () => undefined, preStartContainer: () => undefined, postStopContainer: (id) => void recorded.push(id) }])!;
  lc.preStartContainer(p, app, 'c1');
  assert.deepEqual(tm.getAffinity('p', 'app'), { numaNodeAffinity: BitMask.of(1), preferred: true });
  lc.postStopContainer?.('c1');
  assert.deepEqual(recorded, ['c1']);
  assert.deepEqual(tm.getAffinity('p', 'app'), { numaNodeAffinity: null, preferred: false }, 'the hint of the removed container is gone');
});
