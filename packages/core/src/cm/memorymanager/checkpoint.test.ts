/**
 * memory_manager_state in the kubelet's format. The file and its checksum 4215593881 are the kubelet's own
 * (memorymanager/state/state_checkpoint_test.go v1.28 TestCheckpointStateRestore "Restore valid checkpoint"),
 * so reading it checks the go-spew + FNV-32a checksum, and writing the same state must give the same bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheckpointState, decodeCheckpoint, encodeCheckpoint, MEMORY_MANAGER_STATE_FILE } from './checkpoint.ts';

const KUBELET_FILE = `{
  "policyName":"static",
  "machineState":{"0":{"numberOfAssignments":0,"memoryMap":{"memory":{"total":2048,"systemReserved":512,"allocatable":1536,"reserved":512,"free":1024}},"cells":[]}},
  "entries":{"pod":{"container1":[{"numaAffinity":[0],"type":"memory","size":512}]}},
  "checksum": 4215593881
}`;

test('the kubelet-written file is read: machine state and entries (Restore valid checkpoint)', () => {
  const cp = decodeCheckpoint(KUBELET_FILE);
  assert.ok(cp.ok, cp.ok ? '' : cp.message);
  assert.equal(cp.policyName, 'static');
  assert.deepEqual(cp.machine.get(0), { numberOfAssignments: 0, memoryMap: { memory: { totalMemSize: 2048, systemReserved: 512, allocatable: 1536, reserved: 512, free: 1024 } }, cells: [] });
  assert.deepEqual(cp.entries.get('pod')?.get('container1'), [{ numaAffinity: [0], type: 'memory', size: 512 }]);
});

test('the same state is written byte for byte as Go json.Marshal does, with the kubelet checksum', () => {
  const cp = decodeCheckpoint(KUBELET_FILE);
  assert.ok(cp.ok);
  assert.equal(encodeCheckpoint('static', cp.machine, cp.entries), KUBELET_FILE.replace(/\s+/g, ''));
});

test('a wrong checksum or bad JSON is "checkpoint is corrupted" / the parse error (Restore checkpoint with invalid checksum / JSON)', () => {
  const bad = decodeCheckpoint(KUBELET_FILE.replace('4215593881', '1337'));
  assert.deepEqual(bad, { ok: false, message: 'checkpoint is corrupted' });
  const changed = decodeCheckpoint(KUBELET_FILE.replace('"size":512', '"size":513'));
  assert.deepEqual(changed, { ok: false, message: 'checkpoint is corrupted' });
  assert.equal(decodeCheckpoint('{').ok, false);
});

test('empty entries are left out of the file and still verify (NewMemoryManagerCheckpoint starts from empty maps)', () => {
  const text = encodeCheckpoint('None', new Map(), new Map());
  assert.match(text, /^\{"policyName":"None","machineState":\{\},"checksum":\d+\}$/);
  assert.equal(decodeCheckpoint(text).ok, true);
});

test('CheckpointState: absent file written; a corrupt file or another policy refuses to start, naming the file', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nodelet-mm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, MEMORY_MANAGER_STATE_FILE);
  const s = new CheckpointState(dir, 'Static');
  assert.equal(readFileSync(file, 'utf8'), encodeCheckpoint('Static', new Map(), new Map()));
  s.setMemoryBlocks('pod', 'c', [{ numaAffinity: [0], type: 'memory', size: 1 }]);
  assert.deepEqual(new CheckpointState(dir, 'Static').getMemoryBlocks('pod', 'c'), [{ numaAffinity: [0], type: 'memory', size: 1 }]);
  assert.throws(() => new CheckpointState(dir, 'None'), {
    message: `could not restore state from checkpoint: [memorymanager] configured policy "None" differs from state checkpoint policy "Static", please drain this node and delete the memory manager checkpoint file ${JSON.stringify(file)} before restarting Kubelet`,
  });
  writeFileSync(file, KUBELET_FILE.replace('4215593881', '1337'));
  assert.throws(() => new CheckpointState(dir, 'static'), { message: `could not restore state from checkpoint: checkpoint is corrupted, please drain this node and delete the memory manager checkpoint file ${JSON.stringify(file)} before restarting Kubelet` });
});
