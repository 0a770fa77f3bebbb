// Sidecar containers (init containers with restartPolicy Always) in computePodActions. The cases and their
// expected actions are upstream's TestComputePodActionsWithRestartableInitContainers (kuberuntime_manager_test.go,
// SidecarContainers on): three sidecars (the 2nd and 3rd with liveness and startup probes, both Success unless a
// case says otherwise) and three app containers; the base status has the three sidecars running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container } from '@kubernetes/client-node';
import { computePodActions } from './pod-actions.ts';
import { container, cstatus, makePod, podStatus, sandbox } from './testing/builders.ts';
import type { ContainerStatus, PodStatus } from '../container/types.ts';
import type { ContainerProbeResults } from './types.ts';

type Result = 'success' | 'failure' | 'unknown';
const probe = { exec: { command: ['true'] } };
const sidecars: V1Container[] = [
  container('restartable-init-1', { restartPolicy: 'Always' }),
  container('restartable-init-2', { restartPolicy: 'Always', livenessProbe: probe, startupProbe: probe }),
  container('restartable-init-3', { restartPolicy: 'Always', livenessProbe: probe, startupProbe: probe }),
];
const apps = [container('foo1'), container('foo2'), container('foo3')];
const ids = ['initid1', 'initid2', 'initid3'];

interface Case {
  name: string;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  /** Changes the base statuses (the three sidecars running, ids initid1..3) and the probe results. */
  mutate?: (s: ContainerStatus[], live: Map<string, Result>, start: Map<string, Result>, sb: PodStatus['sandboxStatuses']) => ContainerStatus[];
  startupProbeOn3?: boolean;
  want: { killPod?: boolean; createSandbox?: boolean; attempt?: number; init: number[]; apps: number[]; kill?: string[] };
}

const appStatuses = (state: 'running' | 'exited') => apps.map((c, i) => cstatus(c, state, { id: { type: 'fake', id: `id${i + 1}` } }));

const cases: Case[] = [
  { name: 'initialization completed; start all containers', want: { init: [], apps: [0, 1, 2] } },
  { name: 'no init containers have been started; start the first one', mutate: () => [], want: { init: [0], apps: [] } },
  { name: 'restartable init container has started; start the next', mutate: (s) => s.slice(0, 1), want: { init: [1], apps: [] } },
  {
    name: 'livenessProbe has not been run; start the next',
    mutate: (s, live) => (live.delete('initid2'), s.slice(0, 2)),
    want: { init: [2], apps: [] },
  },
  { name: 'livenessProbe in progress; start the next', mutate: (s, live) => (live.set('initid2', 'unknown'), s.slice(0, 2)), want: { init: [2], apps: [] } },
  { name: 'livenessProbe has completed; start the next', mutate: (s) => s.slice(0, 2), want: { init: [2], apps: [] } },
  {
    name: 'kill and recreate the restartable init container if the liveness check has failed',
    mutate: (s, live) => (live.set('initid3', 'failure'), s),
    want: { init: [2], apps: [0, 1, 2], kill: ['initid3'] },
  },
  { name: 'startupProbe has not been run; do nothing', mutate: (s, _l, start) => (start.delete('initid2'), s.slice(0, 2)), want: { init: [], apps: [] } },
  { name: 'startupProbe in progress; do nothing', mutate: (s, _l, start) => (start.set('initid2', 'unknown'), s.slice(0, 2)), want: { init: [], apps: [] } },
  { name: 'startupProbe has completed; start the next', mutate: (s) => s.slice(0, 2), want: { init: [2], apps: [] } },
  {
    name: 'kill and recreate the restartable init container if the startup check has failed',
    mutate: (s, _l, start) => (start.set('initid3', 'failure'), s),
    want: { init: [2], apps: [], kill: ['initid3'] },
  },
  {
    name: 'restart terminated restartable init container and next init container',
    mutate: (s) => [exited(s[0]!), s[1]!, exited(s[2]!)],
    want: { init: [0, 2], apps: [] },
  },
  { name: 'restart terminated restartable init container and regular containers', mutate: (s) => [exited(s[0]!), s[1]!, s[2]!], want: { init: [0], apps: [0, 1, 2] } },
  {
    name: 'Pod sandbox not ready, restartable init container failed, but RestartPolicy == Never; kill pod only',
    restartPolicy: 'Never',
    mutate: (s, _l, _s, sb) => ((sb[0] = sandbox('sb', 'notready')), [s[0]!, s[1]!, exited(s[2]!, 137)]),
    want: { killPod: true, createSandbox: false, attempt: 1, init: [], apps: [] },
  },
  {
    name: 'Pod sandbox not ready, and RestartPolicy == Never, but no visible restartable init containers; create a new pod sandbox',
    restartPolicy: 'Never',
    mutate: (_s, _l, _st, sb) => ((sb[0] = sandbox('sb', 'notready')), []),
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0], apps: [] },
  },
  {
    name: 'Pod sandbox not ready, restartable init container failed, and RestartPolicy == OnFailure; create a new pod sandbox',
    restartPolicy: 'OnFailure',
    mutate: (s, _l, _s, sb) => ((sb[0] = sandbox('sb', 'notready')), [s[0]!, s[1]!, exited(s[2]!, 137)]),
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0], apps: [] },
  },
  {
    name: 'Pod sandbox not ready, restartable init container failed, and RestartPolicy == Always; create a new pod sandbox',
    mutate: (s, _l, _s, sb) => ((sb[0] = sandbox('sb', 'notready')), [s[0]!, s[1]!, exited(s[2]!, 137)]),
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0], apps: [] },
  },
  {
    name: "initialization failed; restart the last restartable init container even if pod's RestartPolicy == Never",
    restartPolicy: 'Never',
    mutate: (s) => [s[0]!, s[1]!, exited(s[2]!, 137)],
    want: { init: [2], apps: [] },
  },
  {
    name: "restartable init container state unknown; kill and recreate the last restartable init container even if pod's RestartPolicy == Never",
    restartPolicy: 'Never',
    mutate: (s) => [s[0]!, s[1]!, { ...s[2]!, state: 'unknown' }],
    want: { init: [2], apps: [], kill: ['initid3'] },
  },
  {
    name: "restart restartable init container if regular containers are running even if pod's RestartPolicy == Never",
    restartPolicy: 'Never',
    mutate: (s) => [s[0]!, s[1]!, exited(s[2]!, 137), ...appStatuses('running')],
    want: { init: [2], apps: [] },
  },
  {
    name: "kill the pod if all main containers succeeded if pod's RestartPolicy == Never",
    restartPolicy: 'Never',
    mutate: (s) => [...s, ...appStatuses('exited')],
    want: { killPod: true, init: [], apps: [] },
  },
  {
    name: 'some of the init container statuses are missing but the last init container is running, restart restartable init and regular containers',
    mutate: (s) => s.slice(2),
    want: { init: [0, 1], apps: [0, 1, 2] },
  },
];

function exited(s: ContainerStatus, exitCode = 0): ContainerStatus {
  return { ...s, state: 'exited', exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', finishedAt: 2 };
}

const view = (m: Map<string, Result>) => ({ get: (id: string) => m.get(id) });

for (const c of cases) {
  test(`sidecars: ${c.name}`, () => {
    const pod = makePod({ initContainers: sidecars, containers: apps, ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}) });
    const live = new Map<string, Result>([['initid2', 'success'], ['initid3', 'success']]);
    const start = new Map<string, Result>([['initid2', 'success'], ['initid3', 'success']]);
    const sb = [sandbox('sb', 'ready')];
    const base = sidecars.map((s, i) => cstatus(s, 'running', { id: { type: 'fake', id: ids[i]! } }));
    const statuses = c.mutate ? c.mutate(base, live, start, sb) : base;
    const probes: ContainerProbeResults = { liveness: view(live), startup: view(start) };
    const got = computePodActions(pod, podStatus(pod, sb, statuses), probes);
    const w = c.want;
    assert.deepEqual(
      { killPod: got.killPod, createSandbox: got.createSandbox, attempt: got.attempt, init: got.initContainersToStart, apps: got.containersToStart, kill: got.containersToKill.map((k) => k.id.id) },
      { killPod: w.killPod ?? false, createSandbox: w.createSandbox ?? false, attempt: w.attempt ?? 0, init: w.init, apps: w.apps, kill: w.kill ?? [] },
    );
  });
}

test('sidecars: kill messages and reasons of a failed probe and an unknown state (kuberuntime_container.go)', () => {
  const pod = makePod({ initContainers: sidecars, containers: apps, grace: 7 });
  const statuses = [cstatus(sidecars[0]!, 'running'), cstatus(sidecars[1]!, 'unknown', { id: { type: 'fake', id: 'u2' } }), cstatus(sidecars[2]!, 'running', { id: { type: 'fake', id: 'f3' } })];
  const got = computePodActions(pod, podStatus(pod, [sandbox('sb', 'ready')], statuses), { startup: view(new Map([['f3', 'failure']])) });
  assert.deepEqual(
    got.containersToKill.map((k) => [k.id.id, k.reason, k.message, k.gracePeriodS]),
    [
      ['f3', 'StartupProbe', 'Init container restartable-init-3 failed startup probe', 7],
      ['u2', 'UnknownState', 'Init container is in "unknown" state, try killing it before restart', undefined],
    ],
  );
  assert.deepEqual(got.initContainersToStart, [1, 2]);
});

test('sidecars: a regular init container after a sidecar starts once the sidecar runs; the app after both', () => {
  const init = container('setup');
  const pod = makePod({ initContainers: [sidecars[0]!, init], containers: [apps[0]!], restartPolicy: 'Never' });
  const sb = [sandbox('sb', 'ready')];
  const at = (s: ContainerStatus[]) => computePodActions(pod, podStatus(pod, sb, s));
  assert.deepEqual(at([]).initContainersToStart, [0]);
  const side = cstatus(sidecars[0]!, 'running');
  assert.deepEqual([at([side]).initContainersToStart, at([side]).containersToStart], [[1], []]);
  const setupRunning = cstatus(init, 'running');
  assert.deepEqual([at([setupRunning, side]).initContainersToStart, at([setupRunning, side]).containersToStart], [[], []]);
  const done = [cstatus(init, 'exited'), side];
  assert.deepEqual([at(done).initContainersToStart, at(done).containersToStart], [[], [0]]);
  // A regular init container failing in a Never pod fails the pod, sidecars and all.
  const failed = at([cstatus(init, 'exited', { exitCode: 1 }), side]);
  assert.deepEqual([failed.killPod, failed.initContainersToStart], [true, []]);
  // The app exited: the sidecar no longer keeps the pod alive, nothing restarts.
  const appDone = at([cstatus(apps[0]!, 'exited'), cstatus(init, 'exited'), side]);
  assert.deepEqual([appDone.killPod, appDone.initContainersToStart, appDone.containersToStart], [true, [], []]);
  // A sidecar that crashed while the app runs is restarted even with restartPolicy Never.
  const crashed = at([cstatus(apps[0]!, 'running'), cstatus(init, 'exited'), cstatus(sidecars[0]!, 'exited', { exitCode: 1 })]);
  assert.deepEqual([crashed.killPod, crashed.initContainersToStart, crashed.containersToStart], [false, [0], []]);
});

test('sidecars: without a prober (no results) a running sidecar with a startup probe counts as started', () => {
  const pod = makePod({ initContainers: sidecars.slice(1, 2), containers: [apps[0]!] });
  const got = computePodActions(pod, podStatus(pod, [sandbox('sb', 'ready')], [cstatus(sidecars[1]!, 'running')]));
  assert.deepEqual(got.containersToStart, [0]);
});
