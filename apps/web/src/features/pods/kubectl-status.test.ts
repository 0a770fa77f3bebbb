// Expected READY / STATUS / RESTARTS are the cells of kubernetes pkg/printers/internalversion/printers_test.go
// TestPrintPod (test1…test19), for the same pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { kubectlPodColumns, statusTone } from './kubectl-status.ts';

const NOW = Date.parse('2026-11-26T06:00:00Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString() as unknown as Date;
const running = { running: {} };
const waiting = (reason?: string) => ({ waiting: reason ? { reason } : {} });
const terminated = (reason?: string, exitCode = 0) => ({ terminated: { exitCode, ...(reason ? { reason } : {}) } });
const lastAgo = (s: number) => ({ terminated: { exitCode: 0, finishedAt: ago(s) } });

function cs(o: Partial<V1ContainerStatus>): V1ContainerStatus {
  return { name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, ...o };
}

function pod(containers: number, status: V1Pod['status'], inits = 0, meta: V1Pod['metadata'] = {}): V1Pod {
  const c = (p: string) => (_: unknown, i: number) => ({ name: `${p}${i}` });
  return { metadata: { name: 'p', ...meta }, spec: { containers: Array.from({ length: containers }, c('c')), initContainers: Array.from({ length: inits }, c('i')) }, status };
}

function row(p: V1Pod): [string, string, string] {
  const k = kubectlPodColumns(p);
  const since = k.lastRestartMs !== undefined ? ` (${Math.round((NOW - k.lastRestartMs) / 1000)}s ago)` : '';
  return [`${k.readyCount}/${k.total}`, k.status, `${k.restarts}${since}`];
}

test('kubectlPodColumns: TestPrintPod', () => {
  const cases: Array<[string, V1Pod, [string, string, string]]> = [
    ['test1', pod(2, { phase: 'podPhase', containerStatuses: [cs({ ready: true, restartCount: 3, state: running }), cs({ restartCount: 3 })] }), ['1/2', 'podPhase', '6']],
    ['test2', pod(2, { phase: 'podPhase', containerStatuses: [cs({ ready: true, restartCount: 3, state: running }), cs({ restartCount: 3, state: waiting('ContainerWaitingReason') })] }), ['1/2', 'ContainerWaitingReason', '6']],
    ['test3', pod(2, { phase: 'podPhase', containerStatuses: [cs({ restartCount: 3, state: waiting('ContainerWaitingReason') }), cs({ restartCount: 3, state: terminated('ContainerTerminatedReason') })] }), ['0/2', 'ContainerWaitingReason', '6']],
    ['test4', pod(2, { phase: 'podPhase', containerStatuses: [cs({ ready: true, restartCount: 3, state: running }), cs({ ready: true, restartCount: 3 })] }), ['1/2', 'podPhase', '6']],
    ['test5', pod(2, { phase: 'podPhase', reason: 'podReason', containerStatuses: [cs({ ready: true, restartCount: 3, state: running }), cs({ ready: true, restartCount: 3 })] }), ['1/2', 'podReason', '6']],
    ['test6 no Ready condition', pod(2, { phase: 'Running', containerStatuses: [cs({ ready: true, restartCount: 3, state: terminated('Completed') }), cs({ ready: true, restartCount: 3, state: running })] }), ['1/2', 'NotReady', '6']],
    ['test6 Ready condition', pod(2, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [cs({ ready: true, restartCount: 3, state: terminated('Completed') }), cs({ ready: true, restartCount: 3, state: running })] }), ['1/2', 'Running', '6']],
    ['test7', pod(1, { phase: 'podPhase', initContainerStatuses: [cs({ restartCount: 3, state: running, lastState: lastAgo(10) })], containerStatuses: [cs({ state: waiting() })] }, 1), ['0/1', 'Init:0/1', '3 (10s ago)']],
    ['test8', pod(1, { phase: 'podPhase', initContainerStatuses: [cs({ restartCount: 3, state: running, lastState: lastAgo(10) }), cs({ state: waiting() })], containerStatuses: [cs({ state: waiting() })] }, 2), ['0/1', 'Init:0/2', '3 (10s ago)']],
    ['test9', pod(1, { phase: 'podPhase', initContainerStatuses: [cs({ state: { terminated: { exitCode: 0 } } }), cs({ restartCount: 3, state: running, lastState: lastAgo(10) })], containerStatuses: [cs({ state: waiting() })] }, 2), ['0/1', 'Init:1/2', '3 (10s ago)']],
    ['test10', pod(1, { phase: 'podPhase', initContainerStatuses: [cs({ restartCount: 2, state: { terminated: { exitCode: 0 } }, lastState: lastAgo(120) }), cs({ restartCount: 3, state: running, lastState: lastAgo(10) })], containerStatuses: [cs({ state: waiting() })] }, 2), ['0/1', 'Init:1/2', '5 (10s ago)']],
    ['test11', pod(1, { phase: 'Running', initContainerStatuses: [cs({ restartCount: 2, state: { terminated: { exitCode: 0 } }, lastState: lastAgo(120) })], containerStatuses: [cs({ restartCount: 4, state: running, lastState: lastAgo(20) })] }, 1), ['0/1', 'Running', '4 (20s ago)']],
    ['test14', pod(2, { phase: 'Running', containerStatuses: [cs({ ready: true, restartCount: 6, state: running, lastState: lastAgo(5 * 86400) }), cs({ ready: true, restartCount: 3, state: running, lastState: lastAgo(20 * 86400) })] }), ['2/2', 'Running', `9 (${5 * 86400}s ago)`]],
    ['test15', pod(2, { phase: 'podPhase', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }), ['0/2', 'SchedulingGated', '0']],
    ['test16', pod(1, { phase: 'Succeeded', containerStatuses: [cs({ state: terminated('Completed') })] }), ['0/1', 'Completed', '0']],
    ['test17', pod(1, { phase: 'Failed', containerStatuses: [cs({ state: terminated('Error', 1) })] }), ['0/1', 'Error', '0']],
    ['test18 Succeeded with deletion', pod(1, { phase: 'Succeeded', containerStatuses: [cs({ state: terminated('Completed') })] }, 0, { deletionTimestamp: ago(10) }), ['0/1', 'Completed', '0']],
    ['test19 Running with deletion', pod(1, { phase: 'Running', containerStatuses: [cs({ ready: true, state: running })] }, 0, { deletionTimestamp: ago(10) }), ['1/1', 'Terminating', '0']],
    ['init failed, no reason', pod(1, { phase: 'Pending', initContainerStatuses: [cs({ state: { terminated: { exitCode: 3 } } })] }, 1), ['0/1', 'Init:ExitCode:3', '0']],
    ['init failed by a signal', pod(1, { phase: 'Pending', initContainerStatuses: [cs({ state: { terminated: { exitCode: 137, signal: 9 } } })] }, 1), ['0/1', 'Init:Signal:9', '0']],
    ['init crash loop', pod(1, { phase: 'Pending', initContainerStatuses: [cs({ restartCount: 3, state: waiting('CrashLoopBackOff') })] }, 1), ['0/1', 'Init:CrashLoopBackOff', '3']],
    ['app exit without reason', pod(1, { phase: 'Running', containerStatuses: [cs({ state: { terminated: { exitCode: 2 } } })] }), ['0/1', 'ExitCode:2', '0']],
    ['node lost while deleting', pod(1, { phase: 'Running', reason: 'NodeLost' }, 0, { deletionTimestamp: ago(1) }), ['0/1', 'Unknown', '0']],
  ];
  for (const [label, p, want] of cases) assert.deepEqual(row(p), want, label);
});

test('kubectlPodColumns: a sidecar (restartable init container) counts in READY and, once initialized, in RESTARTS', () => {
  const p = pod(1, {
    phase: 'Running',
    conditions: [{ type: 'Initialized', status: 'True' }],
    initContainerStatuses: [cs({ name: 'i0', started: true, ready: true, restartCount: 2, state: running })],
    containerStatuses: [cs({ name: 'c0', ready: true, restartCount: 1, state: running })],
  }, 1);
  p.spec!.initContainers![0]!.restartPolicy = 'Always';
  assert.deepEqual(row(p), ['2/2', 'Running', '3']);
});

test('statusTone: green Running and ready, amber on the way or not ready, red failures', () => {
  const cases: Array<[string, number, number, string]> = [
    ['Running', 2, 2, 'ok'], ['Running', 1, 2, 'warn'], ['NotReady', 1, 2, 'warn'], ['Pending', 0, 1, 'warn'],
    ['ContainerCreating', 0, 1, 'warn'], ['PodInitializing', 0, 1, 'warn'], ['Init:0/2', 0, 1, 'warn'], ['Terminating', 1, 1, 'warn'],
    ['Init:PodInitializing', 0, 1, 'warn'], ['SchedulingGated', 0, 1, 'warn'],
    ['Completed', 0, 1, 'done'], ['Succeeded', 0, 1, 'done'], ['Unknown', 0, 1, 'info'],
    ['CrashLoopBackOff', 0, 1, 'bad'], ['Error', 0, 1, 'bad'], ['ImagePullBackOff', 0, 1, 'bad'], ['ErrImagePull', 0, 1, 'bad'],
    ['OOMKilled', 0, 1, 'bad'], ['Failed', 0, 1, 'bad'], ['Evicted', 0, 1, 'bad'], ['Init:CrashLoopBackOff', 0, 1, 'bad'],
    ['Init:Error', 0, 1, 'bad'], ['ExitCode:1', 0, 1, 'bad'], ['Signal:9', 0, 1, 'bad'], ['CreateContainerConfigError', 0, 1, 'bad'],
    ['ContainerStatusUnknown', 0, 1, 'bad'],
  ];
  for (const [status, readyCount, total, want] of cases) assert.equal(statusTone({ status, readyCount, total }), want, status);
});
