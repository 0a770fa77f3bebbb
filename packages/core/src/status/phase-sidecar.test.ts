// The pod phase with sidecars (restartable init containers): upstream kubelet_pods_test.go (v1.28/v1.29)
// TestPodPhaseWithRestartAlwaysRestartableInitContainers and TestPodPhaseWithRestartNeverRestartableInitContainers,
// a sidecar containerX before containerA and containerB; the statuses are upstream's runningState (started unset),
// startedState, stoppedState / succeededState (terminated 0), failedState (terminated -1), waitingState and
// waitingStateWith(NonZero)LastTermination.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { getPhase } from './phase.ts';

const base = { image: '', imageID: '', ready: false, restartCount: 0 };
const runningState = (name: string): V1ContainerStatus => ({ ...base, name, state: { running: {} } });
const startedState = (name: string): V1ContainerStatus => ({ ...base, name, state: { running: {} }, started: true });
const succeededState = (name: string): V1ContainerStatus => ({ ...base, name, state: { terminated: { exitCode: 0 } } });
const stoppedState = succeededState;
const failedState = (name: string): V1ContainerStatus => ({ ...base, name, state: { terminated: { exitCode: -1 } } });
const waitingState = (name: string): V1ContainerStatus => ({ ...base, name, state: { waiting: {} } });
const waitingWithLast = (name: string, exitCode: number): V1ContainerStatus => ({ ...waitingState(name), lastState: { terminated: { exitCode } } });

const pod = (restartPolicy: 'Always' | 'Never'): V1Pod => ({
  metadata: { name: 'p', uid: 'u' },
  spec: { restartPolicy, initContainers: [{ name: 'containerX', restartPolicy: 'Always' }], containers: [{ name: 'containerA' }, { name: 'containerB' }] },
});

type Case = [string, V1ContainerStatus[], V1ContainerStatus[], string, boolean?];
const X = 'containerX';
const A = 'containerA';
const B = 'containerB';

/** The first six cases of both upstream tables: the same under either restart policy. */
const initializing: Case[] = [
  ['empty, waiting', [], [], 'Pending'],
  ['restartable init container running', [runningState(X)], [], 'Pending'],
  ['restartable init container stopped', [stoppedState(X)], [], 'Pending'],
  ['restartable init container waiting, terminated zero', [waitingWithLast(X, 0)], [], 'Pending'],
  ['restartable init container waiting, terminated non-zero', [waitingWithLast(X, -1)], [], 'Pending'],
  ['restartable init container waiting, not terminated', [waitingState(X)], [], 'Pending'],
];

const always: Case[] = [
  ...initializing,
  ['restartable init container started, 1/2 regular container running', [startedState(X)], [runningState(A)], 'Pending'],
  ['restartable init container started, all regular containers running', [startedState(X)], [runningState(A), runningState(B)], 'Running'],
  ['restartable init container running, all regular containers running', [runningState(X)], [runningState(A), runningState(B)], 'Running'],
  ['restartable init container stopped, all regular containers running', [stoppedState(X)], [runningState(A), runningState(B)], 'Running'],
  ['backoff crashloop restartable init container, all regular containers running', [waitingWithLast(X, 0)], [runningState(A), runningState(B)], 'Running'],
  ['all regular containers succeeded and restartable init container failed with restart always, but the pod is terminal', [failedState(X)], [succeededState(A), succeededState(B)], 'Succeeded', true],
  ['all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal', [succeededState(X)], [succeededState(A), succeededState(B)], 'Succeeded', true],
];

const never: Case[] = [
  ...initializing,
  ['restartable init container started, one main container running', [startedState(X)], [runningState(A)], 'Pending'],
  ['restartable init container started, main containers succeeded', [startedState(X)], [succeededState(A), succeededState(B)], 'Running'],
  ['restartable init container running, main containers succeeded', [runningState(X)], [succeededState(A), succeededState(B)], 'Running'],
  ['all containers succeeded', [succeededState(X)], [succeededState(A), succeededState(B)], 'Succeeded'],
  ['restartable init container terminated non-zero, main containers succeeded', [failedState(X)], [succeededState(A), succeededState(B)], 'Succeeded'],
  ['backoff crashloop restartable init container, main containers succeeded', [waitingWithLast(X, 0)], [succeededState(A), succeededState(B)], 'Succeeded'],
  ['backoff crashloop with non-zero restartable init container, main containers succeeded', [waitingWithLast(X, -1)], [succeededState(A), succeededState(B)], 'Succeeded'],
];

for (const [policy, cases] of [['Always', always], ['Never', never]] as const) {
  for (const [name, inits, apps, want, terminal] of cases) {
    test(`phase, restartPolicy ${policy}, sidecar: ${name} → ${want}`, () => assert.equal(getPhase(pod(policy), [...inits, ...apps], terminal ?? false), want));
  }
}
