import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, PodStatus, SandboxStatus } from '../container/types.ts';
import { syncShownBy } from './sync-shown.ts';

const sandbox = (id: string, state: 'ready' | 'notready' = 'ready') => ({ id, state }) as SandboxStatus;
const container = (id: string, name: string, state: ContainerStatus['state']) => ({ id: { type: 'nodelet', id }, name, state }) as ContainerStatus;
const pod = (sandboxes: SandboxStatus[], containers: ContainerStatus[]): PodStatus =>
  ({ uid: 'u', name: 'p', namespace: 'default', ips: [], sandboxStatuses: sandboxes, containerStatuses: containers });

const firstStart = { steps: [{ action: 'CreatePodSandbox' as const, target: 'u' }, { action: 'StartContainer' as const, target: 'main' }] };

test('a first start is shown by a status with the new sandbox ready and the new container started (running or exited since)', () => {
  const shown = syncShownBy(pod([], []), firstStart);
  assert.ok(shown);
  assert.equal(shown(pod([sandbox('s1')], [container('c1', 'main', 'running')])), true);
  assert.equal(shown(pod([sandbox('s1')], [container('c1', 'main', 'exited')])), true);
  assert.equal(shown(pod([sandbox('s1')], [container('c1', 'main', 'created')])), false, 'created is not started');
  assert.equal(shown(pod([sandbox('s1')], [])), false, 'the sandbox event of the same sync');
  assert.equal(shown(pod([sandbox('s1', 'notready')], [container('c1', 'main', 'running')])), false);
  assert.equal(shown(pod([], [])), false);
});

test('a restart is shown only by the new instance: the status the sync acted on (old instance, old sandbox) is not', () => {
  const before = pod([sandbox('s1')], [container('c1', 'main', 'exited')]);
  const restart = syncShownBy(before, { steps: [{ action: 'StartContainer', target: 'main' }] });
  assert.ok(restart);
  assert.equal(restart(before), false);
  assert.equal(restart(pod([sandbox('s1')], [container('c1', 'main', 'exited'), container('c2', 'main', 'running')])), true);
  const newSandbox = syncShownBy(before, firstStart);
  assert.equal(newSandbox?.(pod([sandbox('s1')], [container('c2', 'main', 'running')])), false, 'the old sandbox is not the one created');
});

test('kills, removals and failed steps need the read; back-off steps change nothing', () => {
  const before = pod([sandbox('s1')], [container('c1', 'main', 'running')]);
  assert.equal(syncShownBy(before, { steps: [{ action: 'KillContainer', target: 'main' }] }), undefined);
  assert.equal(syncShownBy(before, { steps: [{ action: 'StartContainer', target: 'side', error: 'CreateContainerError' }] }), undefined);
  assert.equal(syncShownBy(before, { steps: [{ action: 'StartContainer', target: 'side', error: 'CrashLoopBackOff' }] }), undefined, 'nothing changed');
  const withBackOff = syncShownBy(before, { steps: [{ action: 'StartContainer', target: 'side', error: 'CrashLoopBackOff' }, { action: 'StartContainer', target: 'other' }] });
  assert.equal(withBackOff?.(pod([sandbox('s1')], [container('c1', 'main', 'running'), container('c3', 'other', 'running')])), true);
});
