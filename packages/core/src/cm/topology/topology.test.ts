import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus as osCpus, tmpdir } from 'node:os';
import path from 'node:path';
import { CPUSet } from './cpuset.ts';
import { cpusPerCore, cpusPerSocket, discoverTopology } from './cpu-topology.ts';
import { readMachineInfo } from './machine-info.ts';
import { FOUR_NUMA_HT, ONE_NUMA_HT, TWO_NUMA_HT, fakeMachineInfo, writeFakeSysfs, type FakeMachineSpec } from './testing/fake-sysfs.ts';

const GiB = 1024 ** 3;

function withSysfs(spec: FakeMachineSpec, fn: (root: string) => void): void {
  const root = mkdtempSync(path.join(tmpdir(), 'h3-sysfs-'));
  try {
    writeFakeSysfs(root, spec);
    fn(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('CPUSet parses and prints the Linux list format as k8s.io/utils/cpuset (cpuset_test.go cases)', () => {
  for (const [text, list, printed] of [
    ['', [], ''],
    ['0', [0], '0'],
    ['1', [1], '1'],
    ['0,1', [0, 1], '0-1'],
    ['0-3,8', [0, 1, 2, 3, 8], '0-3,8'],
    ['1-1', [1], '1'],
    ['1,2,3,4,5', [1, 2, 3, 4, 5], '1-5'],
    ['2,6-8,10', [2, 6, 7, 8, 10], '2,6-8,10'],
    ['0,5-7,8,12', [0, 5, 6, 7, 8, 12], '0,5-8,12'],
  ] as const) {
    const s = CPUSet.parse(text);
    assert.deepEqual(s.list(), list, text);
    assert.equal(s.toString(), printed, text);
  }
  assert.throws(() => CPUSet.parse('nonnumeric'), { message: 'strconv.Atoi: parsing "nonnumeric": invalid syntax' });
  assert.throws(() => CPUSet.parse('5-3'), { message: 'invalid range "5-3" (5 > 3)' });
  assert.throws(() => CPUSet.parse('0,'), /invalid syntax/);
  assert.throws(() => CPUSet.parse('0-1-2'), /invalid syntax/);
});

test('CPUSet operations return new sets (union, intersection, difference, subset)', () => {
  const a = CPUSet.of(1, 2, 3);
  const b = CPUSet.of(3, 4);
  assert.equal(a.union(b).toString(), '1-4');
  assert.equal(a.intersection(b).toString(), '3');
  assert.equal(a.difference(b).toString(), '1-2');
  assert.ok(CPUSet.of(2, 3).isSubsetOf(a));
  assert.ok(!b.isSubsetOf(a));
  assert.ok(a.equals(CPUSet.parse('1-3')));
  assert.equal(a.toString(), '1-3', 'a is unchanged');
});

test('a one-NUMA machine with hyperthreads read from a fake sysfs: CPUs, cores, memory, huge pages, distances', () => {
  withSysfs({ ...ONE_NUMA_HT, hugePages2MiPerNode: 3 }, (root) => {
    const m = readMachineInfo(root);
    assert.equal(m.numCores, 4);
    assert.equal(m.numPhysicalCores, 2);
    assert.equal(m.numSockets, 1);
    assert.equal(m.memoryCapacityBytes, 4 * GiB);
    assert.equal(m.topology.length, 1);
    const n = m.topology[0]!;
    assert.equal(n.cpus.toString(), '0-3');
    assert.deepEqual(n.cores, [{ id: 0, socketId: 0, threads: [0, 2] }, { id: 1, socketId: 0, threads: [1, 3] }]);
    assert.deepEqual(n.hugePages, [{ pageSizeKiB: 2048, numPages: 3 }, { pageSizeKiB: 1048576, numPages: 0 }]);
    assert.deepEqual(n.distances, [10]);
  });
});

test('two- and four-NUMA machines read from sysfs equal their ready-made MachineInfo', () => {
  for (const spec of [TWO_NUMA_HT, FOUR_NUMA_HT]) withSysfs(spec, (root) => assert.deepEqual(readMachineInfo(root), fakeMachineInfo(spec)));
  withSysfs(FOUR_NUMA_HT, (root) => {
    const m = readMachineInfo(root);
    assert.deepEqual(m.topology.map((n) => n.cpus.toString()), ['0-1,8-9', '2-3,10-11', '4-5,12-13', '6-7,14-15']);
    assert.deepEqual(m.topology.map((n) => n.distances), [[10, 11, 21, 21], [11, 10, 21, 21], [21, 21, 10, 11], [21, 21, 11, 10]]);
    assert.equal(m.numSockets, 2);
  });
});

test('topology.Discover: core ids are the lowest thread id (unique across sockets), NUMA node per CPU', () => {
  const t = discoverTopology(fakeMachineInfo(FOUR_NUMA_HT));
  assert.deepEqual([t.numCPUs, t.numCores, t.numSockets, t.numNUMANodes], [16, 8, 2, 4]);
  assert.equal(cpusPerCore(t), 2);
  assert.equal(cpusPerSocket(t), 8);
  // CPU 12 is the second thread of the first core of socket 1 (sysfs core_id 0, like CPU 0's).
  assert.deepEqual(t.cpuDetails.get(12), { coreId: 4, socketId: 1, numaNodeId: 2 });
  assert.deepEqual(t.cpuDetails.get(0), { coreId: 0, socketId: 0, numaNodeId: 0 });
  assert.equal(t.cpuDetails.cpusInCores(4).toString(), '4,12');
  assert.equal(t.cpuDetails.cpusInNUMANodes(1, 3).toString(), '2-3,6-7,10-11,14-15');
  assert.equal(t.cpuDetails.numaNodesInSockets(1).toString(), '2-3');
  assert.throws(() => discoverTopology({ ...fakeMachineInfo(ONE_NUMA_HT), numCores: 0 }), { message: 'could not detect number of cpus' });
});

test('offline CPUs are left out; without node directories each socket is a node (cAdvisor getCPUTopology)', () => {
  withSysfs({ ...TWO_NUMA_HT, offline: [7] }, (root) => {
    const m = readMachineInfo(root);
    assert.equal(m.numCores, 7);
    assert.equal(m.topology[1]!.cpus.toString(), '2-3,6');
    assert.deepEqual(m.topology[1]!.cores, [{ id: 0, socketId: 1, threads: [2, 6] }, { id: 1, socketId: 1, threads: [3] }]);
  });
  withSysfs({ ...TWO_NUMA_HT, noNumaDirs: true }, (root) => {
    const m = readMachineInfo(root);
    assert.deepEqual(m.topology.map((n) => [n.id, n.cpus.toString(), n.memoryBytes]), [[0, '0-1,4-5', 0], [1, '2-3,6-7', 0]]);
    assert.equal(discoverTopology(m).numNUMANodes, 2);
  });
});

test('this host: every online CPU is in the machine info', { skip: existsSync('/sys/devices/system/cpu/online') ? false : 'no /sys/devices/system/cpu here' }, () => {
  const m = readMachineInfo();
  assert.equal(m.numCores, osCpus().length);
  assert.equal(discoverTopology(m).cpuDetails.cpus().size(), m.numCores);
});
