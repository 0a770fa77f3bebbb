/**
 * The memory manager with the topology manager on fake 2- and 4-NUMA machines: reservedMemory checked as
 * NewManager does (memory_manager_test.go v1.28 TestValidateReservedMemory / TestConvertPreReserved cases),
 * Guaranteed pods pinned to a NUMA node, single-numa-node refusing what does not fit one node, the state file
 * kept across a restart, and a restart with another policy refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { nullLogger } from '../../util/logger.ts';
import { TopologyManager } from '../topologymanager/manager.ts';
import { MemoryManager } from './manager.ts';
import { parseReservedMemoryFlag, systemReservedMemory } from './reserved.ts';

const gb = 2 ** 30;
const mb = 2 ** 20;
const nodes = (n: number) => [...Array(n).keys()].map((id) => ({ id, memoryBytes: 4 * gb }));

function guaranteed(uid: string, memory: string): V1Pod {
  const r = { cpu: '1', memory };
  return { metadata: { uid, name: uid, namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'x', resources: { limits: r, requests: r } }] } };
}

function stack(policy: string, n: number, dir?: string, memoryPolicy = 'Static') {
  const tm = TopologyManager.create({ policy, numaNodes: nodes(n), logger: nullLogger });
  const reservedMemory = [...Array(n).keys()].map((numaNode) => ({ numaNode, limits: { memory: `${512 / n}Mi` } }));
  const mm = MemoryManager.create({ policy: memoryPolicy, nodes: nodes(n), reservation: { memory: 512 * mb }, reservedMemory, ...(dir ? { stateDir: dir } : {}), affinity: tm, logger: nullLogger });
  mm.start();
  tm.addHintProvider(mm);
  return { tm, mm };
}

test('reservedMemory must sum to the Node Allocatable reservation per type, on NUMA nodes that exist (TestValidateReservedMemory)', () => {
  assert.throws(() => systemReservedMemory([0], { memory: 100 * mb }, []), { message: 'the total amount "0" of type "memory" is not equal to the value "100Mi" determined by Node Allocatable feature' });
  assert.throws(() => systemReservedMemory([0], { memory: gb }, [{ numaNode: 0, limits: { memory: '512Mi' } }]), {
    message: 'the total amount "512Mi" of type "memory" is not equal to the value "1Gi" determined by Node Allocatable feature',
  });
  assert.throws(() => systemReservedMemory([0], { memory: gb }, [{ numaNode: 1, limits: { memory: '1Gi' } }]), { message: 'the reserved memory configuration references a NUMA node 1 that does not exist on this machine' });
  assert.throws(() => systemReservedMemory([0], {}, [{ numaNode: 0, limits: { 'hugepages-2Mi': '4Mi' } }]), {
    message: 'the total amount "4Mi" of type "hugepages-2Mi" is not equal to the value "0" determined by Node Allocatable feature',
  });
  const ok = systemReservedMemory([0, 1], { memory: gb }, [{ numaNode: 0, limits: { memory: '512Mi' } }, { numaNode: 1, limits: { memory: '512Mi' } }]);
  assert.deepEqual([...ok].map(([k, v]) => [k, Object.fromEntries(v)]), [[0, { memory: 512 * mb }], [1, { memory: 512 * mb }]]);
  assert.throws(() => MemoryManager.create({ policy: 'static', nodes: nodes(1), reservation: {}, affinity: TopologyManager.create({ numaNodes: [], logger: nullLogger }), logger: nullLogger }), { message: 'unknown policy: "static"' });
});

test('--reserved-memory flag parsing as ReservedMemoryVar', () => {
  assert.deepEqual(parseReservedMemoryFlag('0:memory=1Gi,hugepages-1Gi=2Gi;1:memory=2Gi'), [
    { numaNode: 0, limits: { memory: '1Gi', 'hugepages-1Gi': '2Gi' } },
    { numaNode: 1, limits: { memory: '2Gi' } },
  ]);
  assert.throws(() => parseReservedMemoryFlag('memory=1Gi'), /the reserved memory has incorrect format/);
  assert.throws(() => parseReservedMemoryFlag('0:cpu=1'), { message: 'memory type conversion error, unknown type: "cpu"' });
  assert.throws(() => parseReservedMemoryFlag('x:memory=1Gi'), { message: 'failed to convert the NUMA node ID, exptected integer, got x' });
});

test('2 NUMA nodes, single-numa-node: a pod larger than one node is TopologyAffinityError; pods fill node 0 then node 1', () => {
  const { tm, mm } = stack('single-numa-node', 2);
  // Each node: 4Gi − 256Mi reserved = 3840Mi allocatable; 5Gi only fits both nodes, which the policy refuses.
  assert.deepEqual(tm.admit(guaranteed('c', '5Gi')), { admit: false, reason: 'TopologyAffinityError', message: 'Resources cannot be allocated with Topology locality' });
  const a = guaranteed('a', '3Gi');
  const b = guaranteed('b', '3Gi');
  assert.deepEqual(tm.admit(a), { admit: true });
  assert.deepEqual(mm.getMemoryNUMANodes(a, a.spec!.containers[0]!), [0]);
  assert.deepEqual(tm.admit(b), { admit: true });
  assert.deepEqual(mm.getMemoryNUMANodes(b, b.spec!.containers[0]!), [1]);
  // Nothing fits any more: the provider has no hint at all (upstream's empty map = no preference), so the
  // memory manager's own Allocate refuses the pod.
  assert.deepEqual(tm.admit(guaranteed('e', '1Gi')), {
    admit: false,
    reason: 'UnexpectedAdmissionError',
    message: 'Allocate failed due to [memorymanager] failed to get the default NUMA affinity, no NUMA nodes with enough memory is available, which is unexpected',
  });
  // A Burstable pod is not the memory manager's: no hint, no blocks.
  const burst: V1Pod = { metadata: { uid: 'd', name: 'd' }, spec: { containers: [{ name: 'app', image: 'x', resources: { requests: { memory: '1Gi' } } }] } };
  assert.deepEqual(tm.admit(burst), { admit: true });
  assert.equal(mm.getMemoryNUMANodes(burst, burst.spec!.containers[0]!), undefined);
});

test('4 NUMA nodes, best-effort: a pod needing two nodes spans the two lowest; the memory goes back when the container is removed', () => {
  const { tm, mm } = stack('best-effort', 4);
  const big = guaranteed('big', '6Gi');
  assert.deepEqual(tm.admit(big), { admit: true });
  assert.deepEqual(mm.getMemoryNUMANodes(big, big.spec!.containers[0]!), [0, 1]);
  assert.deepEqual(mm.getAllocatableMemory().map((b) => [b.numaAffinity, b.size / mb]), [[[0], 3968], [[1], 3968], [[2], 3968], [[3], 3968]]);
  mm.addContainer(big, big.spec!.containers[0]!, 'cid');
  mm.removeContainer('cid');
  assert.deepEqual(mm.getMemory('big', 'app'), []);
});

test('restart: assignments restored from memory_manager_state; another policy refuses to start naming the file', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nodelet-mm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const first = stack('restricted', 2, dir);
  const p = guaranteed('p', '1Gi');
  assert.deepEqual(first.tm.admit(p), { admit: true });
  const again = stack('restricted', 2, dir);
  assert.deepEqual(again.mm.getMemoryNUMANodes(p, p.spec!.containers[0]!), [0]);
  // The restored container's hint is regenerated from its blocks (preferred), so admitting it again keeps node 0.
  assert.deepEqual(again.tm.admit(p), { admit: true });
  assert.throws(() => stack('restricted', 2, dir, 'None'), (err: Error) => err.message.includes('configured policy "None" differs from state checkpoint policy "Static"') && err.message.includes(path.join(dir, 'memory_manager_state')));
});
