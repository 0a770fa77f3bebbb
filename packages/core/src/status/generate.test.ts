import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1ContainerStatus, V1Pod, V1PodCondition } from '@kubernetes/client-node';
import {
  generateConditions,
  generateContainersReadyCondition,
  generatePodInitializedCondition,
  generatePodReadyCondition,
} from './generate.ts';

const st = (name: string, ready: boolean, state: 'running' | 'waiting' | 'terminated' = 'running', started?: boolean): V1ContainerStatus => ({
  name, image: 'x', imageID: '', ready, restartCount: 0, started,
  state: state === 'running' ? { running: {} } : state === 'waiting' ? { waiting: {} } : { terminated: { exitCode: 0 } },
});
const pod = (apps: string[], init: V1Container[] = [], gates: string[] = []): V1Pod => ({
  metadata: { name: 'p' },
  spec: {
    containers: apps.map((name) => ({ name })),
    initContainers: init,
    readinessGates: gates.map((conditionType) => ({ conditionType })),
  },
});
const brief = (c: V1PodCondition) => [c.status, c.reason ?? '', c.message ?? ''];

const containersReady: Array<[string, V1Pod, V1ContainerStatus[] | undefined, string | undefined, string[]]> = [
  ['nil statuses', pod(['a']), undefined, 'Running', ['False', 'UnknownContainerStatuses', '']],
  ['all ready', pod(['a', 'b']), [st('a', true), st('b', true)], 'Running', ['True', '', '']],
  ['one unready', pod(['a', 'b']), [st('a', true), st('b', false)], 'Running', ['False', 'ContainersNotReady', 'containers with unready status: [b]']],
  [
    'unknown and unready',
    pod(['a', 'b', 'c']),
    [st('a', false)],
    'Running',
    ['False', 'ContainersNotReady', 'containers with unknown status: [b c], containers with unready status: [a]'],
  ],
  ['succeeded, all known', pod(['a']), [st('a', false, 'terminated')], 'Succeeded', ['False', 'PodCompleted', '']],
  ['failed', pod(['a']), [st('a', true)], 'Failed', ['False', 'PodFailed', '']],
  ['regular init containers do not count', pod(['a'], [{ name: 'i' }]), [st('a', true)], 'Running', ['True', '', '']],
  [
    'unready sidecar counts',
    pod(['a'], [{ name: 's', restartPolicy: 'Always' }]),
    [st('s', false), st('a', true)],
    'Running',
    ['False', 'ContainersNotReady', 'containers with unready status: [s]'],
  ],
];
for (const [name, p, s, phase, want] of containersReady) {
  test(`ContainersReady: ${name}`, () => assert.deepEqual(brief(generateContainersReadyCondition(p, s, phase)), want));
}

const ready: Array<[string, V1Pod, V1PodCondition[], V1ContainerStatus[], string[]]> = [
  ['containers ready, no gates', pod(['a']), [], [st('a', true)], ['True', '', '']],
  ['containers unready copies reason', pod(['a']), [], [st('a', false)], ['False', 'ContainersNotReady', 'containers with unready status: [a]']],
  [
    'gate condition missing',
    pod(['a'], [], ['example.com/lb']),
    [],
    [st('a', true)],
    ['False', 'ReadinessGatesNotReady', 'corresponding condition of pod readiness gate "example.com/lb" does not exist.'],
  ],
  [
    'gate condition False',
    pod(['a'], [], ['example.com/lb']),
    [{ type: 'example.com/lb', status: 'False' }],
    [st('a', true)],
    ['False', 'ReadinessGatesNotReady', 'the status of pod readiness gate "example.com/lb" is not "True", but False'],
  ],
  ['gate condition True', pod(['a'], [], ['example.com/lb']), [{ type: 'example.com/lb', status: 'True' }], [st('a', true)], ['True', '', '']],
];
for (const [name, p, conds, s, want] of ready) {
  test(`Ready: ${name}`, () => {
    const c = generatePodReadyCondition(p, conds, s, 'Running');
    assert.equal(c.type, 'Ready');
    assert.deepEqual(brief(c), want);
  });
}

const sidecar: V1Container = { name: 's', restartPolicy: 'Always' };
const initialized: Array<[string, V1Pod, V1ContainerStatus[] | undefined, string, string[]]> = [
  ['no init containers, nil statuses', pod(['a']), undefined, 'Pending', ['True', '', '']],
  ['init containers, nil statuses', pod(['a'], [{ name: 'i' }]), undefined, 'Pending', ['False', 'UnknownContainerStatuses', '']],
  ['init ready', pod(['a'], [{ name: 'i' }]), [st('i', true, 'terminated')], 'Pending', ['True', '', '']],
  [
    'init incomplete and unknown',
    pod(['a'], [{ name: 'i' }, { name: 'j' }]),
    [st('i', false)],
    'Pending',
    ['False', 'ContainersNotInitialized', 'containers with unknown status: [j], containers with incomplete status: [i]'],
  ],
  ['sidecar started', pod(['a'], [sidecar]), [st('s', false, 'running', true)], 'Pending', ['True', '', '']],
  [
    'sidecar not started',
    pod(['a'], [sidecar]),
    [st('s', true, 'running', false)],
    'Pending',
    ['False', 'ContainersNotInitialized', 'containers with incomplete status: [s]'],
  ],
  ['regular container started wins', pod(['a'], [sidecar]), [st('s', false, 'running', false), st('a', true)], 'Running', ['True', '', '']],
  ['succeeded', pod(['a'], [{ name: 'i' }]), [st('i', false, 'terminated')], 'Succeeded', ['True', 'PodCompleted', '']],
];
for (const [name, p, s, phase, want] of initialized) {
  test(`Initialized: ${name}`, () => assert.deepEqual(brief(generatePodInitializedCondition(p, s, phase)), want));
}

test('generateConditions: kubelet order, foreign conditions preserved, PodScheduled True', () => {
  const p = pod(['a'], [], ['example.com/lb']);
  p.status = { conditions: [{ type: 'example.com/lb', status: 'True' }, { type: 'Ready', status: 'False' }] };
  const conds = generateConditions(p, [st('a', true)], 'Running', true);
  assert.deepEqual(
    conds.map((c) => [c.type, c.status]),
    [
      ['example.com/lb', 'True'],
      ['PodReadyToStartContainers', 'True'],
      ['Initialized', 'True'],
      ['Ready', 'True'],
      ['ContainersReady', 'True'],
      ['PodScheduled', 'True'],
    ],
  );
  assert.equal(generateConditions(p, undefined, 'Pending', false)[1]?.status, 'False');
});
