import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { containerStateView, describeState, graceLeftSeconds, podCreatedMs, podRowView, sortPodRows } from './pod-summary.ts';

function cs(name: string, state: V1ContainerStatus['state'], ready = false, restartCount = 0): V1ContainerStatus {
  return { name, image: 'img', imageID: '', ready, restartCount, state };
}

function pod(phase: string, statuses: V1ContainerStatus[], extra: Partial<V1Pod> = {}): V1Pod {
  return {
    metadata: { namespace: 'default', name: 'p', creationTimestamp: '2026-11-22T00:00:00Z' as unknown as Date },
    spec: { containers: statuses.map((s) => ({ name: s.name })) },
    status: { phase, containerStatuses: statuses },
    ...extra,
  };
}

test('containerStateView tones and reasons', () => {
  const cases: Array<[string, V1ContainerStatus, Partial<ReturnType<typeof containerStateView>>]> = [
    ['running ready', cs('a', { running: {} }, true), { state: 'running', tone: 'ok' }],
    ['running not ready', cs('a', { running: {} }, false), { state: 'running', tone: 'warn' }],
    ['crashloop', cs('a', { waiting: { reason: 'CrashLoopBackOff' } }), { state: 'waiting', reason: 'CrashLoopBackOff', tone: 'bad' }],
    ['errimagepull', cs('a', { waiting: { reason: 'ErrImagePull' } }), { reason: 'ErrImagePull', tone: 'bad' }],
    ['creating', cs('a', { waiting: { reason: 'ContainerCreating' } }), { state: 'waiting', tone: 'warn' }],
    ['completed', cs('a', { terminated: { exitCode: 0, reason: 'Completed' } }), { state: 'terminated', exitCode: 0, tone: 'done' }],
    ['error no reason', cs('a', { terminated: { exitCode: 2 } }), { reason: 'Error', exitCode: 2, tone: 'bad' }],
    ['no state', cs('a', undefined), { state: 'unknown' }],
  ];
  for (const [label, input, want] of cases) {
    const got = containerStateView(input);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k as keyof typeof got], v, `${label}.${k}`);
  }
});

test('podRowView: kubectl STATUS, READY, RESTARTS and the status colour', () => {
  const cases: Array<[string, V1Pod, { status: string; ready: string; restarts: number; tone: string }]> = [
    ['healthy', pod('Running', [cs('a', { running: {} }, true), cs('b', { running: {} }, true, 2)]), { status: 'Running', ready: '2/2', restarts: 2, tone: 'ok' }],
    ['running, not ready', pod('Running', [cs('a', { running: {} }, false)]), { status: 'Running', ready: '0/1', restarts: 0, tone: 'warn' }],
    ['crashloop', pod('Running', [cs('a', { waiting: { reason: 'CrashLoopBackOff' } }, false, 4)]), { status: 'CrashLoopBackOff', ready: '0/1', restarts: 4, tone: 'bad' }],
    ['pull', pod('Pending', [cs('a', { waiting: { reason: 'ErrImagePull' } })]), { status: 'ErrImagePull', ready: '0/1', restarts: 0, tone: 'bad' }],
    ['creating', pod('Pending', [cs('a', { waiting: { reason: 'ContainerCreating' } })]), { status: 'ContainerCreating', ready: '0/1', restarts: 0, tone: 'warn' }],
    ['no statuses yet', { ...pod('Pending', []), spec: { containers: [{ name: 'x' }] } }, { status: 'Pending', ready: '0/1', restarts: 0, tone: 'warn' }],
    ['succeeded', pod('Succeeded', [cs('a', { terminated: { exitCode: 0, reason: 'Completed' } })]), { status: 'Completed', ready: '0/1', restarts: 0, tone: 'done' }],
    ['oom', pod('Running', [cs('a', { terminated: { exitCode: 137, reason: 'OOMKilled' } }, false, 1)]), { status: 'OOMKilled', ready: '0/1', restarts: 1, tone: 'bad' }],
    ['evicted, no container status', { ...pod('Failed', []), status: { phase: 'Failed', reason: 'Evicted' } }, { status: 'Evicted', ready: '0/0', restarts: 0, tone: 'bad' }],
    ['terminating', pod('Running', [cs('a', { running: {} }, true)], { metadata: { name: 'p', deletionTimestamp: new Date() } }), { status: 'Terminating', ready: '1/1', restarts: 0, tone: 'warn' }],
  ];
  for (const [label, input, want] of cases) {
    const v = podRowView(input);
    assert.deepEqual({ status: v.status, ready: `${v.readyCount}/${v.total}`, restarts: v.restarts, tone: v.phaseTone }, want, label);
  }
});

test('podRowView: labels, IP, QoS and the Terminating grace countdown (deletionTimestamp − now)', () => {
  const p = pod('Running', [cs('a', { running: {} }, true)], {
    metadata: { name: 'p', namespace: 'web', uid: 'u1', labels: { app: 'web' }, deletionTimestamp: '2026-11-26T06:00:30Z' as unknown as Date, deletionGracePeriodSeconds: 30 },
  });
  p.status = { ...p.status, podIP: '10.89.0.7', qosClass: 'BestEffort' };
  const v = podRowView(p);
  assert.deepEqual([v.uid, v.labels, v.podIP, v.qosClass, v.deletionGracePeriodSeconds], ['u1', { app: 'web' }, '10.89.0.7', 'BestEffort', 30]);
  assert.equal(graceLeftSeconds(v, Date.parse('2026-11-26T06:00:00Z')), 30);
  assert.equal(graceLeftSeconds(v, Date.parse('2026-11-26T06:00:29.5Z')), 1);
  assert.equal(graceLeftSeconds(v, Date.parse('2026-11-26T06:01:00Z')), 0);
  // A clock reading from before the deletion (the page ticks every 5 s until a pod terminates): never above the grace.
  assert.equal(graceLeftSeconds(v, Date.parse('2026-11-26T05:59:57Z')), 30);
  assert.equal(graceLeftSeconds(podRowView(pod('Running', [])), 0), undefined);
});

test('podRowView counts init containers in restarts but not in ready', () => {
  const p = pod('Pending', [cs('main', { waiting: { reason: 'PodInitializing' } })]);
  p.status!.initContainerStatuses = [cs('setup', { waiting: { reason: 'CrashLoopBackOff' } }, false, 3)];
  p.spec!.initContainers = [{ name: 'setup' }];
  const v = podRowView(p);
  assert.equal(v.status, 'Init:CrashLoopBackOff');
  assert.equal(v.total, 1);
  assert.equal(v.restarts, 3);
  assert.equal(v.containers[0]?.init, true);
});

test('sortPodRows by namespace then name; describeState', () => {
  const rows = ['b/x', 'a/z', 'a/y'].map((k) => ({ ...podRowView(pod('Running', [])), namespace: k.split('/')[0]!, name: k.split('/')[1]! }));
  assert.deepEqual(sortPodRows(rows).map((r) => `${r.namespace}/${r.name}`), ['a/y', 'a/z', 'b/x']);
  assert.equal(describeState({ state: 'running' }), 'running');
  assert.equal(describeState({ state: 'waiting', reason: 'CrashLoopBackOff' }), 'waiting: CrashLoopBackOff');
  assert.equal(describeState({ state: 'terminated', reason: 'Error', exitCode: 1 }), 'terminated: Error (1)');
});

test('podCreatedMs falls back to startTime, then config.seen', () => {
  const at = (iso: string) => iso as unknown as Date;
  const cases: Array<[V1Pod, number | undefined]> = [
    [{ metadata: { creationTimestamp: at('1970-01-01T00:00:01Z') }, status: { startTime: at('1970-01-01T00:00:02Z') } }, 1000],
    [{ metadata: {}, status: { startTime: at('1970-01-01T00:00:02Z') } }, 2000],
    [{ metadata: { annotations: { 'kubernetes.io/config.seen': '1970-01-01T00:00:03.000000000Z' } } }, 3000],
    [{}, undefined],
  ];
  for (const [p, want] of cases) assert.equal(podCreatedMs(p), want);
});

test('podRowView: the agent\'s why (pods.list) shows while the pod is not Running and Ready, not once it is', () => {
  const why = { reason: 'ErrImagePull', text: 'image localhost/x:1 cannot be pulled (ErrImagePull: not found); retrying' };
  const waiting = { ...pod('Pending', [cs('app', { waiting: { reason: 'ErrImagePull' } })]), why };
  assert.equal(podRowView(waiting).why, why.text);
  const ready = { ...pod('Running', [cs('app', { running: {} }, true)]), why };
  assert.equal(podRowView(ready).why, undefined, 'a stale why of a pod now ready is not shown');
  assert.equal(podRowView(pod('Pending', [])).why, undefined);
});
