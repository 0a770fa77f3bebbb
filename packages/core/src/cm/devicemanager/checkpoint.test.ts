import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpointChecksum, decodeCheckpoint, encodeCheckpoint } from './checkpoint.ts';

// Checkpoint files written by real kubelets (a Jetson GPU node; an ACK GPU node's documentation).
const KUBELET_WITH_ENTRY =
  '{"Data":{"PodDeviceEntries":[{"PodUID":"bf52b2cd-b611-4e79-86b1-280b283185c3","ContainerName":"check","ResourceName":"nvidia.com/gpu","DeviceIDs":{"-1":["tegra"]},"AllocResp":"Ch8KFk5WSURJQV9WSVNJQkxFX0RFVklDRVMSBXRlZ3Jh"}],"RegisteredDevices":{"nvidia.com/gpu":["tegra"]}},"Checksum":3660592824}';
const KUBELET_NO_ENTRIES = '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{"nvidia.com/gpu":["GPU-0650a168-e770-3ea8-8ac3-8a1d419763e0"]}},"Checksum":3952659280}';

test('checksums of checkpoints written by the kubelet verify, and their allocation responses decode', () => {
  const a = decodeCheckpoint(KUBELET_WITH_ENTRY);
  assert.ok(a.ok, !a.ok ? a.message : '');
  assert.deepEqual(a.registered, { 'nvidia.com/gpu': ['tegra'] });
  assert.equal(a.entries.length, 1);
  assert.deepEqual({ ...a.entries[0], response: undefined }, { podUid: 'bf52b2cd-b611-4e79-86b1-280b283185c3', containerName: 'check', resource: 'nvidia.com/gpu', deviceIds: { '-1': ['tegra'] }, response: undefined });
  assert.deepEqual(a.entries[0]!.response!.envs, { NVIDIA_VISIBLE_DEVICES: 'tegra' });
  const b = decodeCheckpoint(KUBELET_NO_ENTRIES);
  assert.ok(b.ok);
  assert.deepEqual(b.entries, []);
});

test('what we write is the kubelet file for the same data (byte for byte) and reads back', () => {
  const kubelet = JSON.parse(KUBELET_WITH_ENTRY);
  const restored = decodeCheckpoint(KUBELET_WITH_ENTRY);
  assert.ok(restored.ok);
  const ours = encodeCheckpoint(restored.entries, restored.registered);
  assert.equal(ours, JSON.stringify(kubelet));
  assert.equal(encodeCheckpoint([], { 'nvidia.com/gpu': ['GPU-0650a168-e770-3ea8-8ac3-8a1d419763e0'] }), KUBELET_NO_ENTRIES);
});

test('entries reserved but not yet allocated are not checkpointed (the kubelet writes after Allocate)', () => {
  const text = encodeCheckpoint([{ podUid: 'u', containerName: 'c', resource: 'example.com/foo', deviceIds: { '-1': ['d0'] } }], { 'example.com/foo': ['d0'] });
  assert.equal(JSON.parse(text).Data.PodDeviceEntries, null);
});

test('a changed file, bad JSON or a missing checksum is "checkpoint is corrupted"', () => {
  const tampered = KUBELET_WITH_ENTRY.replace('"tegra"]}},', '"tegra","other"]}},');
  assert.deepEqual(decodeCheckpoint(tampered), { ok: false, message: 'checkpoint is corrupted' });
  const bad = decodeCheckpoint('{"Data":');
  assert.ok(!bad.ok && bad.message.startsWith('checkpoint is corrupted: '));
  assert.ok(!decodeCheckpoint('{"Data":{}}').ok);
  assert.notEqual(checkpointChecksum({ PodDeviceEntries: null, RegisteredDevices: {} }), checkpointChecksum({ PodDeviceEntries: [], RegisteredDevices: {} }));
});
