/**
 * The plugin stub (plugin-stub.ts) against the real device manager over unix sockets: watchKubelet registers once
 * kubelet.sock exists and again after a kubelet restart (which removes the plugin's socket and re-creates
 * kubelet.sock), as real plugins do; and the manager's bus events for registrations, health and failures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../../util/clock.ts';
import { RecordingLogger } from '../../util/logger.ts';
import { DeviceManager } from './manager.ts';
import type { DeviceEventInput } from './manager-deps.ts';
import { grpcEndpointConnector } from './endpoint.ts';
import { DevicePluginStub } from './plugin-stub.ts';

const RES = 'example.com/fake';

async function until(what: string, fn: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !fn(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(fn(), `timed out waiting for ${what}`);
}

test('watchKubelet registers once kubelet.sock appears, and again after a kubelet restart removed the plugin socket', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'nodelet-stub-'));
  const events: DeviceEventInput[] = [];
  const managers: DeviceManager[] = [];
  const manager = async () => {
    const m = new DeviceManager({ clock: new FakeClock(), logger: new RecordingLogger().logger, dir, publish: (e) => events.push(e), connect: grpcEndpointConnector({ dialMs: 2_000, allocateMs: 1_000, preStartMs: 1_000 }) });
    managers.push(m);
    await m.start();
    return m;
  };
  const stub = new DevicePluginStub({ dir, endpoint: 'fake.sock', resource: RES, devices: [{ id: 'fake-0', healthy: true }, { id: 'fake-1', healthy: true }] });
  const registrations: boolean[] = [];
  const errors: string[] = [];
  await stub.serve();
  const unwatch = stub.watchKubelet({ onRegistered: (again) => registrations.push(again), onError: (e) => errors.push(e.message) }, 50);
  t.after(async () => {
    unwatch();
    await stub.stop();
    for (const m of managers) await m.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const first = await manager();
  await until('registered', () => registrations.length === 1 && first.capacity().allocatable[RES] === 2);
  assert.deepEqual(registrations, [false]);
  assert.ok(stub.setHealth('fake-1', false));
  assert.equal(stub.setHealth('fake-1', false), false, 'no change, nothing streamed');
  await until('unhealthy', () => first.capacity().allocatable[RES] === 1);
  assert.deepEqual(events.map((e) => [e.change, e.healthy, e.total]), [['registered', undefined, undefined], ['devices', 2, 2], ['devices', 1, 2]]);
  assert.deepEqual(events[0], { resource: RES, change: 'registered', message: 'device plugin registered on fake.sock' });

  await first.stop();
  const second = await manager();
  await until('registered again', () => registrations.length === 2 && second.capacity().capacity[RES] === 2);
  assert.deepEqual(registrations, [false, true]);
  assert.equal(second.capacity().allocatable[RES], 1, 'the health the plugin streams, not a fresh list');
});

test('the manager publishes refused registrations and allocation failures with the kubelet messages', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'nodelet-stub-'));
  const events: DeviceEventInput[] = [];
  const m = new DeviceManager({ clock: new FakeClock(), logger: new RecordingLogger().logger, dir, publish: (e) => events.push(e) });
  await m.start();
  const stub = new DevicePluginStub({ dir, endpoint: 'fake.sock', resource: RES, devices: [{ id: 'fake-0', healthy: true }] });
  await stub.serve();
  t.after(async () => {
    await stub.stop();
    await m.stop();
    await rm(dir, { recursive: true, force: true });
  });
  await assert.rejects(stub.register({ version: 'v1alpha' }));
  await stub.register();
  await until('devices', () => m.capacity().allocatable[RES] === 1);
  const pod: V1Pod = { metadata: { uid: 'u1', name: 'greedy', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x', resources: { limits: { [RES]: '2' } } }] } };
  assert.equal(m.admit(pod, []).admit, false);
  assert.deepEqual(events.filter((e) => e.change === 'registrationFailed' || e.change === 'allocationFailed'), [
    { resource: RES, change: 'registrationFailed', message: 'requested API version "v1alpha" is not supported by kubelet. Supported versions are ["v1beta1"]' },
    { resource: RES, change: 'allocationFailed', message: 'Allocate failed due to requested number of devices unavailable for example.com/fake. Requested: 2, Available: 1, which is unexpected', pod: { namespace: 'default', name: 'greedy', uid: 'u1' }, container: 'c' },
  ]);
});
