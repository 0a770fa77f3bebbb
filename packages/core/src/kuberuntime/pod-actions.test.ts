import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computePodActions } from './pod-actions.ts';
import { container, cstatus, makePod, podStatus, sandbox } from './testing/builders.ts';
import type { PodActions } from './types.ts';

const app = container('app');
const side = container('side');
const init1 = container('init1');
const init2 = container('init2');

type Want = Partial<Omit<PodActions, 'containersToKill'>> & { kill?: string[] };

interface Case {
  name: string;
  pod: ReturnType<typeof makePod>;
  status: ReturnType<typeof podStatus>;
  want: Want;
}

const pAlways = makePod({ containers: [app, side] });
const pNever = makePod({ containers: [app], restartPolicy: 'Never' });
const pOnFailure = makePod({ containers: [app, side], restartPolicy: 'OnFailure' });
const pInit = makePod({ containers: [app], initContainers: [init1, init2] });
const pInitNever = makePod({ containers: [app], initContainers: [init1], restartPolicy: 'Never' });
const pHost = makePod({ containers: [app], hostNetwork: true });
const changedApp = { ...app, command: ['sleep', '100'] };
const pChanged = makePod({ containers: [changedApp, side] });

const cases: Case[] = [
  { name: 'no sandbox: create sandbox and start all', pod: pAlways, status: podStatus(pAlways, []), want: { killPod: true, createSandbox: true, attempt: 0, containersToStart: [0, 1] } },
  { name: 'all running: nothing', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(app, 'running'), cstatus(side, 'running')]), want: { killPod: false, createSandbox: false, sandboxId: 's1', containersToStart: [] } },
  { name: 'sandbox not ready: recreate with attempt+1', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'notready', 2)], [cstatus(app, 'exited')]), want: { killPod: true, createSandbox: true, attempt: 3, sandboxId: 's1', containersToStart: [0, 1] } },
  { name: 'multiple ready sandboxes: recreate', pod: pAlways, status: podStatus(pAlways, [sandbox('s2', 'ready', 1), sandbox('s1', 'ready', 0)]), want: { killPod: true, createSandbox: true, attempt: 2 } },
  { name: 'network mode changed: recreate', pod: pHost, status: podStatus(pHost, [{ ...sandbox('s1', 'ready'), hostNetwork: false }], [cstatus(app, 'running')]), want: { killPod: true, createSandbox: true, attempt: 1 } },
  { name: 'Never: dead sandbox with containers is not recreated', pod: pNever, status: podStatus(pNever, [sandbox('s1', 'notready')], [cstatus(app, 'exited')]), want: { killPod: true, createSandbox: false } },
  { name: 'OnFailure: sandbox recreated only for unsucceeded containers', pod: pOnFailure, status: podStatus(pOnFailure, [sandbox('s1', 'notready')], [cstatus(app, 'exited'), cstatus(side, 'exited', { exitCode: 1 })]), want: { killPod: true, createSandbox: true, containersToStart: [1] } },
  { name: 'OnFailure: all succeeded, no new sandbox', pod: pOnFailure, status: podStatus(pOnFailure, [sandbox('s1', 'notready')], [cstatus(app, 'exited'), cstatus(side, 'exited')]), want: { killPod: true, createSandbox: false } },
  { name: 'Always: exited container restarted', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(app, 'exited'), cstatus(side, 'running')]), want: { killPod: false, containersToStart: [0] } },
  { name: 'OnFailure: exit 0 stays, exit 1 restarts', pod: pOnFailure, status: podStatus(pOnFailure, [sandbox('s1', 'ready')], [cstatus(app, 'exited'), cstatus(side, 'exited', { exitCode: 1 })]), want: { killPod: false, containersToStart: [1] } },
  { name: 'Never: completed container, nothing left → kill pod', pod: pNever, status: podStatus(pNever, [sandbox('s1', 'ready')], [cstatus(app, 'exited', { exitCode: 1 })]), want: { killPod: true, createSandbox: false, containersToStart: [] } },
  { name: 'missing container started', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(side, 'running')]), want: { containersToStart: [0] } },
  { name: 'unknown container killed then restarted', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(app, 'unknown', { id: { type: 'fake', id: 'u1' } }), cstatus(side, 'running')]), want: { containersToStart: [0], kill: ['u1'] } },
  // As the kubelet, a created (never started) container is started again, as a new attempt; first removed.
  { name: 'created container removed, then started again', pod: pNever, status: podStatus(pNever, [sandbox('s1', 'ready')], [cstatus(app, 'created')]), want: { containersToStart: [0], kill: ['app-created-0'] } },
  { name: 'hash changed: kill and restart', pod: pChanged, status: podStatus(pChanged, [sandbox('s1', 'ready')], [cstatus(app, 'running', { id: { type: 'fake', id: 'old' } }), cstatus(side, 'running')]), want: { containersToStart: [0], kill: ['old'] } },
  { name: 'init: fresh sandbox starts the first init container', pod: pInit, status: podStatus(pInit, []), want: { createSandbox: true, initContainersToStart: [0], containersToStart: [] } },
  { name: 'init: first done → second', pod: pInit, status: podStatus(pInit, [sandbox('s1', 'ready')], [cstatus(init1, 'exited')]), want: { initContainersToStart: [1], containersToStart: [] } },
  { name: 'init: one running → wait', pod: pInit, status: podStatus(pInit, [sandbox('s1', 'ready')], [cstatus(init2, 'running'), cstatus(init1, 'exited')]), want: { initContainersToStart: [], containersToStart: [] } },
  { name: 'init: all done → app containers', pod: pInit, status: podStatus(pInit, [sandbox('s1', 'ready')], [cstatus(init2, 'exited'), cstatus(init1, 'exited')]), want: { initContainersToStart: [], containersToStart: [0] } },
  { name: 'init: failed, Always → restart it', pod: pInit, status: podStatus(pInit, [sandbox('s1', 'ready')], [cstatus(init1, 'exited', { exitCode: 2 })]), want: { killPod: false, initContainersToStart: [0] } },
  { name: 'init: failed, Never → kill pod', pod: pInitNever, status: podStatus(pInitNever, [sandbox('s1', 'ready')], [cstatus(init1, 'exited', { exitCode: 2 })]), want: { killPod: true, initContainersToStart: [] } },
  { name: 'init: app already running → init done', pod: pInit, status: podStatus(pInit, [sandbox('s1', 'ready')], [cstatus(app, 'running')]), want: { initContainersToStart: [], containersToStart: [] } },
  { name: 'init: created init container removed, then started again', pod: pInit, status: podStatus(pInit, [sandbox('s1', 'ready')], [cstatus(init2, 'created'), cstatus(init1, 'exited')]), want: { initContainersToStart: [1], kill: ['init2-created-0'] } },
  // Two instances of one container (left by an older agent): the newest is the container; the older is killed.
  { name: 'duplicate: older running instance killed, newest kept', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(app, 'running', { restartCount: 1 }), cstatus(app, 'running'), cstatus(side, 'running')]), want: { killPod: false, containersToStart: [], kill: ['app-running-0'] } },
  { name: 'duplicate: newest died, older still running: older killed before the restart', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(app, 'exited', { restartCount: 1, exitCode: 1 }), cstatus(app, 'running'), cstatus(side, 'running')]), want: { containersToStart: [0], kill: ['app-running-0'] } },
  { name: 'duplicate: older never-started instance removed', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(app, 'running', { restartCount: 1 }), cstatus(app, 'created'), cstatus(side, 'running')]), want: { containersToStart: [], kill: ['app-created-0'] } },
  { name: 'older exited instances are history, not duplicates', pod: pAlways, status: podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(app, 'running', { restartCount: 1 }), cstatus(app, 'exited'), cstatus(side, 'running')]), want: { containersToStart: [], kill: [] } },
];

test('computePodActions', () => {
  for (const c of cases) {
    const got = computePodActions(c.pod, c.status);
    const { kill, ...rest } = c.want;
    for (const [k, v] of Object.entries(rest)) assert.deepEqual(got[k as keyof PodActions], v, `${c.name}: ${k}`);
    assert.deepEqual(got.containersToKill.map((k) => k.id.id), kill ?? [], `${c.name}: kill`);
  }
});

test('computePodActions: deleted pod does not restart exited containers', () => {
  const p = makePod({ containers: [app] });
  p.metadata!.deletionTimestamp = new Date(0);
  const got = computePodActions(p, podStatus(p, [sandbox('s1', 'ready')], [cstatus(app, 'exited', { exitCode: 1 })]));
  assert.deepEqual(got.containersToStart, []);
  assert.equal(got.killPod, true);
});

test('computePodActions: never-started instances are removed, running duplicates stopped', () => {
  const status = podStatus(pAlways, [sandbox('s1', 'ready')], [cstatus(app, 'created', { restartCount: 2 }), cstatus(app, 'running', { restartCount: 1 }), cstatus(side, 'running')]);
  const got = computePodActions(pAlways, status);
  assert.deepEqual(
    got.containersToKill.map((k) => [k.id.id, k.reason, k.remove ?? false]),
    [['app-running-1', 'Duplicate', false], ['app-created-2', 'NotStarted', true]],
  );
  assert.deepEqual(got.containersToStart, [0], 'attempt 3 once both are gone');
});

// kuberuntime_manager.go computePodActions: a running container whose liveness (or startup) result is Failure.
const probed = container('app', { livenessProbe: { exec: { command: ['live'] }, terminationGracePeriodSeconds: 4 }, startupProbe: { exec: { command: ['up'] } } });
const results = (live: Record<string, string>, start: Record<string, string> = {}) => ({
  liveness: { get: (id: string) => live[id] as 'failure' | undefined },
  startup: { get: (id: string) => start[id] as 'failure' | undefined },
});
const kills = (a: PodActions) => a.containersToKill.map((k) => [k.id.id, k.reason, k.message, k.gracePeriodS]);

test('computePodActions: a failed liveness probe kills and restarts the container (probe grace)', () => {
  const p = makePod({ containers: [probed, side], grace: 20 });
  const st = podStatus(p, [sandbox('s1', 'ready')], [cstatus(probed, 'running'), cstatus(side, 'running')]);
  const got = computePodActions(p, st, results({ 'app-running-0': 'failure' }));
  assert.deepEqual(kills(got), [['app-running-0', 'LivenessProbe', 'Container app failed liveness probe, will be restarted', 4]]);
  assert.deepEqual(got.containersToStart, [0]);
  assert.equal(got.killPod, false);
  // Another instance's result (the restarted container has a new id) does not apply; success keeps it.
  assert.deepEqual(kills(computePodActions(p, st, results({ 'app-exited-0': 'failure' }))), []);
  assert.deepEqual(kills(computePodActions(p, st, results({ 'app-running-0': 'success' }))), []);
  assert.deepEqual(kills(computePodActions(p, st)), [], 'no probe results: nothing to kill');
});

test('computePodActions: a failed startup probe kills with the pod grace when the probe sets none', () => {
  const p = makePod({ containers: [probed], grace: 20 });
  const st = podStatus(p, [sandbox('s1', 'ready')], [cstatus(probed, 'running')]);
  const got = computePodActions(p, st, results({}, { 'app-running-0': 'failure' }));
  assert.deepEqual(kills(got), [['app-running-0', 'StartupProbe', 'Container app failed startup probe, will be restarted', 20]]);
  assert.deepEqual(got.containersToStart, [0]);
});

test('computePodActions: restartPolicy Never — killed, not restarted; with nothing else kept the pod is killed', () => {
  const p = makePod({ containers: [probed], restartPolicy: 'Never' });
  const got = computePodActions(p, podStatus(p, [sandbox('s1', 'ready')], [cstatus(probed, 'running')]), results({ 'app-running-0': 'failure' }));
  assert.deepEqual(kills(got).map((k) => k[2]), ['Container app failed liveness probe']);
  assert.deepEqual(got.containersToStart, []);
  assert.equal(got.killPod, true);
});

test('computePodActions: a sidecar failing its liveness probe is killed', () => {
  const sc = container('proxy', { restartPolicy: 'Always', livenessProbe: { exec: { command: ['live'] } } });
  const p = makePod({ containers: [app], initContainers: [sc] });
  const got = computePodActions(p, podStatus(p, [sandbox('s1', 'ready')], [cstatus(sc, 'running'), cstatus(app, 'running')]), results({ 'proxy-running-0': 'failure' }));
  assert.deepEqual(kills(got), [['proxy-running-0', 'LivenessProbe', 'Init container proxy failed liveness probe', 30]]);
});
