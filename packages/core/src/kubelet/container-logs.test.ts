// Which container instance /containerLogs serves, as the kubelet's validateContainerLogStatus (kubelet_pods.go,
// v1.28) picks it from the pod's status, with its refusal messages; and the reasons the HTTP layer maps to 404/400.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1PodStatus } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { StatusCache } from '../container/cache.ts';
import { containerLogs, pickLogContainer } from './container-logs.ts';
import { container, cstatus, makePod, podStatus, sandbox } from '../kuberuntime/testing/builders.ts';

const term = (id: string) => ({ terminated: { exitCode: 1, containerID: id } });

test('containerLogs: reasons, the running instance and the previous one from lastState', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-logs-'));
  try {
    await writeFile(join(dir, '0.log'), '2026-01-01T00:00:00.000000000Z stdout F first run\n');
    await writeFile(join(dir, '1.log'), '2026-01-01T00:01:00.000000000Z stdout F second run\n');
    const app = container('app');
    const pod = makePod({ name: 'web', containers: [app, container('idle')] });
    const cache = new StatusCache();
    cache.set('uid-web', podStatus(pod, [sandbox('s', 'ready')], [
      cstatus(app, 'running', { id: { type: 'fake', id: 'c1' }, restartCount: 1, logPath: join(dir, '1.log') }),
      cstatus(app, 'exited', { id: { type: 'fake', id: 'c0' }, logPath: join(dir, '0.log') }),
    ]), undefined, 1);
    let status: V1PodStatus = {
      containerStatuses: [
        { name: 'app', image: 'i', imageID: '', ready: true, restartCount: 1, containerID: 'fake://c1', state: { running: {} }, lastState: term('fake://c0') },
        { name: 'idle', image: 'i', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } },
      ],
    };
    const deps = {
      clock: new FakeClock(),
      cache,
      findPod: (ns: string, n: string) => (ns === 'default' && n === 'web' ? pod : undefined),
      podStatus: () => status,
      isRunning: async () => false,
    };
    const read = async (podName: string, c: string, previous = false) => {
      let out = '';
      const r = await containerLogs(deps, 'default', podName, c, { previous }, (s) => (out += s), new AbortController().signal);
      return r.ok ? out : `${r.reason}: ${r.message}`;
    };
    assert.equal(await read('nope', 'app'), 'PodNotFound: pod "nope" in namespace "default" not found');
    assert.equal(await read('web', 'nope'), 'ContainerNotFound: container nope is not valid for pod web');
    assert.equal(await read('web', 'idle'), 'LogNotAvailable: container "idle" in pod "web" is waiting to start: ContainerCreating');
    assert.equal(await read('web', 'idle', true), 'NoPreviousContainer: previous terminated container "idle" in pod "web" not found');
    assert.equal(await read('web', 'app'), 'second run\n');
    assert.equal(await read('web', 'app', true), 'first run\n');
    // Crash-looping: waiting in back-off, lastState the instance that just died (c1); the container GC kept only it.
    cache.set('uid-web', podStatus(pod, [sandbox('s', 'ready')], [cstatus(app, 'exited', { id: { type: 'fake', id: 'c1' }, restartCount: 1, logPath: join(dir, '1.log') })]), undefined, 2);
    status = { containerStatuses: [{ name: 'app', image: 'i', imageID: '', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: term('fake://c1') }] };
    assert.equal(await read('web', 'app', true), 'second run\n', '--previous is the instance in lastState, not an older one');
    assert.equal(await read('web', 'app'), 'second run\n', 'without --previous, lastState too (the next did not start)');
    // An instance the runtime no longer has: a clear refusal, not a crash.
    status = { containerStatuses: [{ name: 'app', image: 'i', imageID: '', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: term('fake://gone') }] };
    assert.match(await read('web', 'app', true), /^LogNotAvailable: failed to get container status "gone"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('validateContainerLogStatus: the kubelet\'s choices and messages', () => {
  const st = (s: Record<string, unknown>, last?: Record<string, unknown>, containerID?: string): V1PodStatus => ({
    containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: s, ...(last ? { lastState: last } : {}), ...(containerID ? { containerID } : {}) }],
  });
  assert.deepEqual(pickLogContainer(st({ terminated: { exitCode: 0, containerID: 'x://t' } }), 'c', 'p', false), { ok: true, id: 'x://t' });
  assert.deepEqual(pickLogContainer(st({ terminated: { exitCode: 0 } }, term('x://l')), 'c', 'p', false), { ok: true, id: 'x://l' });
  assert.deepEqual(pickLogContainer(st({ terminated: { exitCode: 0 } }), 'c', 'p', false), { ok: false, reason: 'LogNotAvailable', message: 'container "c" in pod "p" is terminated' });
  assert.deepEqual(pickLogContainer(st({ waiting: { reason: 'ErrImagePull' } }), 'c', 'p', false), { ok: false, reason: 'LogNotAvailable', message: 'container "c" in pod "p" is waiting to start: image can\'t be pulled' });
  assert.deepEqual(pickLogContainer(st({ waiting: { reason: 'ImagePullBackOff' } }), 'c', 'p', false), { ok: false, reason: 'LogNotAvailable', message: 'container "c" in pod "p" is waiting to start: trying and failing to pull image' });
  assert.deepEqual(pickLogContainer(st({}), 'c', 'p', false), { ok: false, reason: 'LogNotAvailable', message: 'container "c" in pod "p" is waiting to start - no logs yet' });
  assert.deepEqual(pickLogContainer(st({}), 'other', 'p', false), { ok: false, reason: 'LogNotAvailable', message: 'container "other" in pod "p" is not available' });
  assert.deepEqual(pickLogContainer({ ephemeralContainerStatuses: [{ name: 'dbg', image: 'i', imageID: '', ready: false, restartCount: 0, containerID: 'x://e', state: { running: {} } }] }, 'dbg', 'p', false), { ok: true, id: 'x://e' });
});
