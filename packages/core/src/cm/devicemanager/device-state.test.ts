import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../util/clock.ts';
import { DeviceState } from './device-state.ts';
import { ENDPOINT_STOP_GRACE_MS } from './types.ts';

const dev = (id: string, healthy = true, numaNodes: number[] = []) => ({ id, healthy, numaNodes });

function registered(clock = new FakeClock()) {
  const s = new DeviceState(clock);
  s.connected('example.com/foo');
  s.update('example.com/foo', [dev('d0'), dev('d1'), dev('d2', false)]);
  return { s, clock };
}

test('capacity counts every device, allocatable the healthy ones (GetCapacity)', () => {
  const { s } = registered();
  assert.deepEqual(s.capacity(), { capacity: { 'example.com/foo': 3 }, allocatable: { 'example.com/foo': 2 }, removed: [] });
});

test('a disconnected plugin: all devices unhealthy, then removed after the 5 minute stop grace period', async () => {
  const { s, clock } = registered();
  s.disconnected('example.com/foo');
  assert.deepEqual(s.capacity(), { capacity: { 'example.com/foo': 3 }, allocatable: { 'example.com/foo': 0 }, removed: [] });
  await clock.step(ENDPOINT_STOP_GRACE_MS);
  assert.equal(s.capacity().capacity['example.com/foo'], 3, 'still there at exactly the grace period');
  await clock.step(1);
  assert.deepEqual(s.capacity(), { capacity: {}, allocatable: {}, removed: ['example.com/foo'] });
  assert.deepEqual(s.capacity().removed, [], 'reported once');
});

test('a plugin that comes back within the grace period keeps its resource', async () => {
  const { s, clock } = registered();
  s.disconnected('example.com/foo');
  await clock.step(60_000);
  s.connected('example.com/foo');
  s.update('example.com/foo', [dev('d0'), dev('d1')]);
  await clock.step(ENDPOINT_STOP_GRACE_MS * 2);
  assert.deepEqual(s.capacity().allocatable, { 'example.com/foo': 2 });
});

test('reserve: the kubelet errors for unregistered, unhealthy-only and too few devices', () => {
  const { s } = registered();
  assert.deepEqual(s.reserve('p1', 'c', 'example.com/bar', 1), { ok: false, message: 'cannot allocate unregistered device example.com/bar' });
  assert.deepEqual(s.reserve('p1', 'c', 'example.com/foo', 3), { ok: false, message: 'requested number of devices unavailable for example.com/foo. Requested: 3, Available: 2' });
  assert.ok(s.reserve('p1', 'c', 'example.com/foo', 2).ok);
  assert.deepEqual(s.reserve('p2', 'c', 'example.com/foo', 1), { ok: false, message: 'requested number of devices unavailable for example.com/foo. Requested: 1, Available: 0' });
  assert.deepEqual(s.reserve('p1', 'c', 'example.com/foo', 1), { ok: false, message: 'pod "p1" container "c" changed request for resource "example.com/foo" from 2 to 1' });
  const t = new DeviceState(new FakeClock());
  t.connected('example.com/foo');
  t.update('example.com/foo', [dev('d0', false)]);
  assert.deepEqual(t.reserve('p', 'c', 'example.com/foo', 1), { ok: false, message: 'no healthy devices present; cannot allocate unhealthy devices example.com/foo' });
});

test('reserve: same size again is a no-op; freed pods return their devices; reusable devices come first', () => {
  const { s } = registered();
  const a = s.reserve('p1', 'init', 'example.com/foo', 1);
  assert.ok(a.ok && a.entry);
  assert.deepEqual(a.entry.deviceIds, { '-1': ['d0'] });
  assert.deepEqual(s.reserve('p1', 'init', 'example.com/foo', 1), { ok: true });
  const b = s.reserve('p1', 'app', 'example.com/foo', 1, new Set(['d0']));
  assert.ok(b.ok && b.entry);
  assert.deepEqual(b.entry.deviceIds, { '-1': ['d0'] }, 'the init container device is reused');
  assert.deepEqual(s.removeStale(new Set(['p2'])), ['p1']);
  assert.ok(s.reserve('p2', 'c', 'example.com/foo', 2).ok);
});

test('device ids are keyed by their NUMA nodes (checkpoint DevicesPerNUMA)', () => {
  const s = new DeviceState(new FakeClock());
  s.connected('example.com/gpu');
  s.update('example.com/gpu', [dev('g0', true, [0]), dev('g1', true, [0, 1])]);
  const r = s.reserve('p', 'c', 'example.com/gpu', 2);
  assert.ok(r.ok && r.entry);
  assert.deepEqual(r.entry.deviceIds, { '0': ['g0', 'g1'], '1': ['g1'] });
});
