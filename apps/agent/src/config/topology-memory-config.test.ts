/** Topology / memory manager settings: the kubelet's validation messages and the KubeletConfig they become. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TOPOLOGY_MEMORY_DEFAULTS, coreTopologyMemory, validateTopologyMemory, type TopologyMemoryAgentConfig } from './topology-memory-config.ts';

const c = (over: Partial<TopologyMemoryAgentConfig>): TopologyMemoryAgentConfig => ({ ...TOPOLOGY_MEMORY_DEFAULTS, ...over });

test('defaults are valid and give policy none / container / None', () => {
  assert.equal(validateTopologyMemory(c({})), undefined);
  assert.deepEqual(coreTopologyMemory(c({})), { topologyManager: { policy: 'none', scope: 'container' }, memoryManager: { policy: 'None' } });
});

test('bad policies and scopes are refused as the kubelet validation.go words them', () => {
  assert.equal(
    validateTopologyMemory(c({ topologyManagerPolicy: 'strict' })),
    'invalid configuration: topologyManagerPolicy (--topology-manager-policy) "strict" must be one of: ["none" "best-effort" "restricted" "single-numa-node"]',
  );
  assert.equal(validateTopologyMemory(c({ topologyManagerScope: 'node' })), 'invalid configuration: topologyManagerScope (--topology-manager-scope) "node" must be one of: "container", or "pod"');
  assert.equal(validateTopologyMemory(c({ memoryManagerPolicy: 'static' })), 'unknown policy: "static"');
});

test('reservedMemory from the file or the --reserved-memory flag (the flag wins); bad entries named', () => {
  const file = [{ numaNode: 0, limits: { memory: '1Gi' } }];
  assert.deepEqual(coreTopologyMemory(c({ memoryManagerPolicy: 'Static', reservedMemory: file })).memoryManager, { policy: 'Static', reservedMemory: file });
  assert.deepEqual(coreTopologyMemory(c({ reservedMemory: file, reservedMemoryFlag: '1:memory=2Gi' })).memoryManager.reservedMemory, [{ numaNode: 1, limits: { memory: '2Gi' } }]);
  assert.equal(validateTopologyMemory(c({ reservedMemory: [{ numaNode: -1, limits: {} }] })), 'reservedMemory[0].numaNode: expected a NUMA node id, got -1');
  assert.equal(validateTopologyMemory(c({ reservedMemory: [{ numaNode: 0, limits: { cpu: '1' } }] })), 'reservedMemory[0].limits: memory type conversion error, unknown type: "cpu"');
  assert.equal(validateTopologyMemory(c({ reservedMemoryFlag: '0:memory=lots' })), '--reserved-memory: failed to parse the quatity, expected quatity, got lots');
});
