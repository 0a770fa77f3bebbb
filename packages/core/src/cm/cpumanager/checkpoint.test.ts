// Expected values: checkpoints from the kubelet's state_checkpoint_test.go (TestCheckpointStateRestore) and
// cpu_manager_state files written by real v1.2x kubelets (static policy, published with their checksums).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CPUSet } from '../topology/cpuset.ts';
import { checkpointChecksum, decodeCpuCheckpoint, encodeCpuCheckpoint } from './checkpoint.ts';
import { CPU_MANAGER_STATE_FILE, openCheckpointState } from './state-file.ts';

const REAL_FILES = [
  '{"policyName":"static","defaultCpuSet":"0-1,6-13,18-23","entries":{"28c11c89-3493-4972-bb67-7090b9d75e0d":{"mytestclient":"2-3,14-15","mytestclient2":"4-5,16-17"}},"checksum":1684933537}',
  '{"policyName":"static","defaultCpuSet":"0-1,4-13,16-23","entries":{"6d33c60b-5e34-4ab3-ab0c-a616627b0a94":{"mytestclient2":"2-3,14-15"}},"checksum":641473090}',
  '{"policyName":"static","defaultCpuSet":"0-23","checksum":1538133146}',
];

test('files written by a real kubelet verify and are written back byte for byte', () => {
  for (const text of REAL_FILES) {
    const cp = decodeCpuCheckpoint(text);
    assert.equal(encodeCpuCheckpoint(cp), text);
  }
});

test('TestCheckpointStateRestore checksums (checkpoint v2, keys matched case-insensitively as Go does)', () => {
  const cases: Array<[string, string, string, Record<string, Record<string, string>>]> = [
    ['Restore default cpu set', '{"policyName": "none", "defaultCPUSet": "4-6", "entries": {}, "checksum": 354655845}', '4-6', {}],
    ['Restore valid checkpoint', '{"policyName": "none", "defaultCPUSet": "1-3", "entries": {"pod": {"container1": "4-6", "container2": "1-3"}}, "checksum": 3610638499}', '1-3', { pod: { container1: '4-6', container2: '1-3' } }],
    ['Restore checkpoint from checkpoint with v1 checksum', '{"policyName": "none", "defaultCPUSet": "1-3", "checksum": 1694838852}', '1-3', {}],
  ];
  for (const [name, text, def, entries] of cases) assert.deepEqual(decodeCpuCheckpoint(text), { policyName: 'none', defaultCpuSet: def, entries }, name);
  assert.throws(() => decodeCpuCheckpoint('{"policyName": "none", "defaultCPUSet": "4-6", "entries": {}, "checksum": 1337}'), { message: 'checkpoint is corrupted' });
  assert.equal(checkpointChecksum({ policyName: 'none', defaultCpuSet: '1.3', entries: {} }), 3021697696);
});

test('the state file: written on every change (0600), refused on a policy mismatch or bad content naming the file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'h3-cpustate-'));
  const file = path.join(dir, CPU_MANAGER_STATE_FILE);
  try {
    const s = openCheckpointState(dir, 'static');
    assert.equal(readFileSync(file, 'utf8'), encodeCpuCheckpoint({ policyName: 'static', defaultCpuSet: '', entries: {} }));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    s.setDefaultCPUSet(CPUSet.parse('0,2-3'));
    s.setCPUSet('uid-1', 'app', CPUSet.of(1));
    const again = openCheckpointState(dir, 'static');
    assert.equal(again.getDefaultCPUSet().toString(), '0,2-3');
    assert.equal(again.getCPUSet('uid-1', 'app')?.toString(), '1');
    const drain = `please drain this node and delete the CPU manager checkpoint file "${file}" before restarting Kubelet`;
    assert.throws(() => openCheckpointState(dir, 'none'), { message: `could not restore state from checkpoint: configured policy "none" differs from state checkpoint policy "static", ${drain}` });
    writeFileSync(file, '{"policyName": "none", "defaultCPUSet": "1-3", "entries": {"pod": {"container1": "4-6", "container2": "asd"}}, "checksum": 962272150}');
    assert.throws(() => openCheckpointState(dir, 'none'), { message: `could not restore state from checkpoint: could not parse cpuset "asd" for container "container2" in pod "pod": strconv.Atoi: parsing "asd": invalid syntax, ${drain}` });
    writeFileSync(file, '{"policyName":"static","defaultCpuSet":"0-1","checksum":12345}');
    assert.throws(() => openCheckpointState(dir, 'static'), { message: `could not restore state from checkpoint: checkpoint is corrupted, ${drain}` });
    writeFileSync(file, '{');
    assert.throws(() => openCheckpointState(dir, 'static'), (err: Error) => err.message.startsWith('could not restore state from checkpoint: ') && err.message.endsWith(drain));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
