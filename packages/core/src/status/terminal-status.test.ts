// The kubelet's status_manager.go TerminatePod defaulting (expected values from that source): what lets a pod
// deleted before its containers ever started reach a terminal phase, so its API object is deleted (#19).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { terminalPodStatus } from './terminal-status.ts';

const unknown = { terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', exitCode: 137 } };
const waiting = (name: string, reason = 'ErrImagePull'): V1ContainerStatus => ({ name, image: 'x', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason } } });
const done = (name: string, exitCode: number): V1ContainerStatus => ({ name, image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, reason: exitCode ? 'Error' : 'Completed' } } });

function pod(init: string[] = [], annotations?: Record<string, string>): V1Pod {
  return { metadata: { name: 'p', namespace: 'default', uid: 'u', annotations }, spec: { initContainers: init.map((name) => ({ name, image: 'x' })), containers: [{ name: 'c', image: 'x' }] } };
}

test('a pod whose container never started (image pull failing): Failed, the container ContainerStatusUnknown 137', () => {
  const s = terminalPodStatus(pod(), { phase: 'Pending', containerStatuses: [waiting('c')] });
  assert.equal(s.phase, 'Failed');
  assert.deepEqual(s.containerStatuses?.[0]?.state, unknown);
});

test('terminated containers and terminal phases are kept', () => {
  const s = terminalPodStatus(pod(), { phase: 'Succeeded', containerStatuses: [done('c', 0)] });
  assert.equal(s.phase, 'Succeeded');
  assert.deepEqual(s.containerStatuses?.[0]?.state, { terminated: { exitCode: 0, reason: 'Completed' } });
});

test('before initialization: regular containers stay waiting, init containers up to the last started one fail', () => {
  const s = terminalPodStatus(pod(['i1', 'i2', 'i3']), {
    phase: 'Pending',
    initContainerStatuses: [done('i1', 0), { ...waiting('i2', 'CrashLoopBackOff'), lastState: { terminated: { exitCode: 1 } } }, waiting('i3', 'PodInitializing')],
    containerStatuses: [waiting('c', 'PodInitializing')],
  });
  assert.equal(s.phase, 'Failed');
  assert.deepEqual(s.initContainerStatuses?.map((c) => c.state), [{ terminated: { exitCode: 0, reason: 'Completed' } }, unknown, { waiting: { reason: 'PodInitializing' } }]);
  assert.deepEqual(s.containerStatuses?.[0]?.state, { waiting: { reason: 'PodInitializing' } });
});

test('no init container ever started: the first is still reported failed', () => {
  const s = terminalPodStatus(pod(['i1', 'i2']), { phase: 'Pending', initContainerStatuses: [waiting('i1'), waiting('i2', 'PodInitializing')] });
  assert.deepEqual(s.initContainerStatuses?.map((c) => c.state), [unknown, { waiting: { reason: 'PodInitializing' } }]);
});

test('static pods keep their phase (upstream TODO #116484)', () => {
  const s = terminalPodStatus(pod([], { 'kubernetes.io/config.source': 'file' }), { phase: 'Running', containerStatuses: [waiting('c')] });
  assert.equal(s.phase, 'Running');
  assert.deepEqual(s.containerStatuses?.[0]?.state, unknown);
});
