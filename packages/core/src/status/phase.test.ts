import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { getPhase } from './phase.ts';

const running = (name: string, started?: boolean): V1ContainerStatus => ({
  name, image: 'x', imageID: '', ready: true, restartCount: 0, started, state: { running: {} },
});
const exited = (name: string, exitCode: number): V1ContainerStatus => ({
  name, image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode } },
});
const waiting = (name: string, lastExit?: number): V1ContainerStatus => ({
  name, image: 'x', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'X' } },
  lastState: lastExit === undefined ? undefined : { terminated: { exitCode: lastExit } },
});

function pod(opts: { restartPolicy?: string; init?: V1Container[]; apps?: string[]; static?: boolean } = {}): V1Pod {
  return {
    metadata: { name: 'p', uid: 'u', annotations: opts.static ? { 'kubernetes.io/config.source': 'file' } : undefined },
    spec: {
      restartPolicy: opts.restartPolicy ?? 'Always',
      initContainers: opts.init,
      containers: (opts.apps ?? ['a', 'b']).map((name) => ({ name })),
    },
  };
}
const sidecar: V1Container = { name: 's', restartPolicy: 'Always' };
const init: V1Container = { name: 'i' };

const cases: Array<[string, V1Pod, V1ContainerStatus[], boolean, string]> = [
  ['no statuses', pod(), [], false, 'Pending'],
  ['all running', pod(), [running('a'), running('b')], false, 'Running'],
  ['one status unknown', pod(), [running('a')], false, 'Pending'],
  ['one waiting, never ran', pod(), [running('a'), waiting('b')], false, 'Pending'],
  ['one waiting after a crash (restarting)', pod(), [running('a'), waiting('b', 1)], false, 'Running'],
  ['all exited, Always → restarting', pod(), [exited('a', 0), exited('b', 1)], false, 'Running'],
  ['all exited 0, Never', pod({ restartPolicy: 'Never' }), [exited('a', 0), exited('b', 0)], false, 'Succeeded'],
  ['all exited 0, OnFailure', pod({ restartPolicy: 'OnFailure' }), [exited('a', 0), exited('b', 0)], false, 'Succeeded'],
  ['one failed, Never', pod({ restartPolicy: 'Never' }), [exited('a', 0), exited('b', 2)], false, 'Failed'],
  ['one failed, OnFailure → restarting', pod({ restartPolicy: 'OnFailure' }), [exited('a', 0), exited('b', 2)], false, 'Running'],
  ['crash-looping waiting, Never', pod({ restartPolicy: 'Never', apps: ['a'] }), [waiting('a', 1)], false, 'Failed'],
  ['init running', pod({ init: [init] }), [running('i'), waiting('a'), waiting('b')], false, 'Pending'],
  ['init no status', pod({ init: [init] }), [], false, 'Pending'],
  ['init failed, Never', pod({ restartPolicy: 'Never', init: [init] }), [exited('i', 1)], false, 'Failed'],
  ['init failed and waiting to restart, Never', pod({ restartPolicy: 'Never', init: [init] }), [waiting('i', 1)], false, 'Failed'],
  ['init failed, Always → still pending', pod({ init: [init] }), [waiting('i', 1), waiting('a'), waiting('b')], false, 'Pending'],
  ['init done, apps running', pod({ init: [init] }), [exited('i', 0), running('a'), running('b')], false, 'Running'],
  ['sidecar started, apps running', pod({ init: [sidecar] }), [running('s', true), running('a'), running('b')], false, 'Running'],
  ['sidecar running not started', pod({ init: [sidecar] }), [running('s', false), waiting('a'), waiting('b')], false, 'Pending'],
  [
    'sidecar restarting after apps started stays Running',
    pod({ init: [sidecar] }),
    [running('s', false), running('a'), running('b')],
    false,
    'Running',
  ],
  [
    'terminated sidecar ignored, apps succeeded, Never',
    pod({ restartPolicy: 'Never', init: [sidecar] }),
    [exited('s', 137), exited('a', 0), exited('b', 0)],
    false,
    'Succeeded',
  ],
  ['terminal pod, all exited 0, Always', pod(), [exited('a', 0), exited('b', 0)], true, 'Succeeded'],
  ['terminal pod, one failed, Always', pod(), [exited('a', 0), exited('b', 1)], true, 'Failed'],
  ['terminal static pod keeps restart policy rule', pod({ static: true }), [exited('a', 0), exited('b', 0)], true, 'Running'],
];

for (const [name, p, statuses, terminal, want] of cases) {
  test(`phase: ${name} → ${want}`, () => assert.equal(getPhase(p, statuses, terminal), want));
}
