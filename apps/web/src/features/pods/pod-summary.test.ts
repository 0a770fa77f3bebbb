import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { containerStateView, describeState, podCreatedMs, podRowView, sortPodRows } from './pod-summary.ts';

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

test('podRowView: ready, restarts, status text', () => {
  const cases: Array<[string, V1Pod, { status: string; ready: string; restarts: number; tone: string }]> = [
    ['healthy', pod('Running', [cs('a', { running: {} }, true), cs('b', { running: {} }, true, 2)]), { status: 'Running', ready: '2/2', restarts: 2, tone: 'ok' }],
    ['crashloop', pod('Running', [cs('a', { waiting: { reason: 'CrashLoopBackOff' } }, false, 4)]), { status: 'CrashLoopBackOff', ready: '0/1', restarts: 4, tone: 'bad' }],
    ['pull', pod('Pending', [cs('a', { waiting: { reason: 'ErrImagePull' } })]), { status: 'ErrImagePull', ready: '0/1', restarts: 0, tone: 'bad' }],
    ['creating', pod('Pending', [cs('a', { waiting: { reason: 'ContainerCreating' } })]), { status: 'ContainerCreating', ready: '0/1', restarts: 0, tone: 'warn' }],
    ['no statuses yet', { ...pod('Pending', []), spec: { containers: [{ name: 'x' }] } }, { status: 'ContainerCreating', ready: '0/1', restarts: 0, tone: 'warn' }],
    ['succeeded', pod('Succeeded', [cs('a', { terminated: { exitCode: 0, reason: 'Completed' } })]), { status: 'Succeeded', ready: '0/1', restarts: 0, tone: 'done' }],
    ['evicted', { ...pod('Failed', [cs('a', { terminated: { exitCode: 137, reason: 'Error' } })]), status: { phase: 'Failed', reason: 'Evicted', containerStatuses: [cs('a', { terminated: { exitCode: 137, reason: 'Error' } })] } }, { status: 'Evicted', ready: '0/1', restarts: 0, tone: 'bad' }],
    ['terminating', pod('Running', [cs('a', { running: {} }, true)], { metadata: { name: 'p', deletionTimestamp: new Date() } }), { status: 'Terminating', ready: '1/1', restarts: 0, tone: 'ok' }],
  ];
  for (const [label, input, want] of cases) {
    const v = podRowView(input);
    assert.deepEqual({ status: v.status, ready: `${v.readyCount}/${v.total}`, restarts: v.restarts, tone: v.phaseTone }, want, label);
  }
});

test('podRowView counts init containers in restarts but not in ready', () => {
  const p = pod('Pending', [cs('main', { waiting: { reason: 'PodInitializing' } })]);
  p.status!.initContainerStatuses = [cs('setup', { waiting: { reason: 'CrashLoopBackOff' } }, false, 3)];
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
