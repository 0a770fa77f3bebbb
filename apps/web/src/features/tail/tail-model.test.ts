import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeletEvent } from '@nodelet/agent/types';
import { EMPTY_FILTER, eventInScope, initialTail, rowMatches, tailReducer, toTailRow, type TailFilter } from './tail-model.ts';

const pod = (ns: string, name: string) => ({ namespace: ns, name, uid: `${ns}-${name}` });
const T = '2026-11-22T12:00:00.000Z';

function pleg(seq: number, ns = 'default', name = 'web'): NodeletEvent {
  return { type: 'pleg', seq, time: T, pod: pod(ns, name), pleg: 'ContainerDied', containerId: 'abcdef0123456789', containerName: 'app' };
}

const samples: NodeletEvent[] = [
  pleg(1),
  { type: 'podStatus', seq: 2, time: T, pod: pod('default', 'crasher'), phase: 'Running', ready: false, status: {}, containers: [{ name: 'app', state: 'waiting', reason: 'CrashLoopBackOff', ready: false, restartCount: 3 }] },
  { type: 'podConfig', seq: 3, time: T, pod: pod('kube-system', 'static-web'), op: 'ADD', source: 'file' },
  { type: 'k8sEvent', seq: 4, time: T, eventType: 'Warning', reason: 'BackOff', message: 'Back-off restarting', count: 2, firstTimestamp: T, lastTimestamp: T, involvedObject: { kind: 'Pod', namespace: 'default', name: 'crasher', fieldPath: 'spec.containers{app}' } },
  { type: 'k8sEvent', seq: 5, time: T, eventType: 'Normal', reason: 'NodeReady', message: 'ready', count: 1, firstTimestamp: T, lastTimestamp: T, involvedObject: { kind: 'Node', name: 'n1' } },
  { type: 'runtime', seq: 6, time: T, ready: false, message: 'runtime down' },
  { type: 'probe', seq: 7, time: T, pod: pod('default', 'web'), container: 'app', probeType: 'readiness', result: 'failure', previous: 'success', output: 'HTTP 500', latencyMs: 4 },
];

test('toTailRow maps every event type', () => {
  const want = [
    { type: 'pleg', pod: 'web', namespace: 'default', label: 'ContainerDied', summary: 'container app', tone: 'warn' },
    { type: 'podStatus', pod: 'crasher', namespace: 'default', label: 'Running', summary: 'not ready; app=waiting(CrashLoopBackOff)', tone: 'bad' },
    { type: 'podConfig', pod: 'static-web', namespace: 'kube-system', label: 'ADD', summary: 'source file', tone: 'ok' },
    { type: 'k8sEvent', pod: 'crasher', namespace: 'default', label: 'BackOff', summary: 'Back-off restarting (x2) [spec.containers{app}]', tone: 'bad' },
    { type: 'k8sEvent', pod: undefined, namespace: undefined, label: 'NodeReady', summary: 'ready', tone: 'info' },
    { type: 'runtime', pod: undefined, namespace: undefined, label: 'RuntimeNotReady', summary: 'runtime down', tone: 'bad' },
    { type: 'probe', pod: 'web', namespace: 'default', label: 'readiness failure', summary: 'container app (was success): HTTP 500 · 4ms', tone: 'warn' },
  ];
  samples.forEach((e, i) => {
    const r = toTailRow(e);
    assert.deepEqual({ type: r.type, pod: r.pod, namespace: r.namespace, label: r.label, summary: r.summary, tone: r.tone }, want[i]);
  });
});

test('rowMatches: namespace exact, pod substring, type', () => {
  const rows = samples.map(toTailRow);
  const cases: Array<[Partial<TailFilter>, number[]]> = [
    [{}, [1, 2, 3, 4, 5, 6, 7]],
    [{ namespace: 'default' }, [1, 2, 4, 7]],
    [{ type: 'probe' }, [7]],
    [{ namespace: 'kube' }, []],
    [{ namespace: ' kube-system ' }, [3]],
    [{ pod: 'CRASH' }, [2, 4]],
    [{ type: 'k8sEvent' }, [4, 5]],
    [{ type: 'k8sEvent', pod: 'crasher' }, [4]],
    [{ type: 'runtime', namespace: 'default' }, []],
  ];
  for (const [f, want] of cases) {
    assert.deepEqual(rows.filter((r) => rowMatches(r, { ...EMPTY_FILTER, ...f })).map((r) => r.seq), want, JSON.stringify(f));
  }
});

test('eventInScope follows the agent filter semantics', () => {
  const cases: Array<[Parameters<typeof eventInScope>[1], number[]]> = [
    [{}, [1, 2, 3, 4, 5, 6, 7]],
    [{ namespace: 'default', pod: 'crasher' }, [2, 4]],
    [{ pod: 'crash' }, []],
    [{ types: ['pleg', 'runtime'] }, [1, 6]],
    [{ afterSeq: 4 }, [5, 6, 7]],
  ];
  for (const [f, want] of cases) assert.deepEqual(samples.filter((e) => eventInScope(e, f)).map((e) => e.seq), want, JSON.stringify(f));
});

test('tailReducer: newest first, dedupe, cap', () => {
  let s = initialTail(3);
  s = tailReducer(s, { type: 'events', events: [pleg(1), pleg(2)] });
  s = tailReducer(s, { type: 'events', events: [pleg(2), pleg(4), pleg(3)] });
  assert.deepEqual(s.rows.map((r) => r.seq), [4, 3, 2]);
  const same = tailReducer(s, { type: 'events', events: [pleg(4)] });
  assert.equal(same, s, 'duplicates do not change state');
  s = tailReducer(s, { type: 'events', events: [pleg(0)] });
  assert.deepEqual(s.rows.map((r) => r.seq), [4, 3, 2], 'older than the window falls off');
});

test('tailReducer: pause buffers, resume merges, reset clears', () => {
  let s = tailReducer(initialTail(500), { type: 'events', events: [pleg(1)] });
  s = tailReducer(s, { type: 'pause' });
  s = tailReducer(s, { type: 'events', events: [pleg(2), pleg(3), pleg(1)] });
  assert.deepEqual(s.rows.map((r) => r.seq), [1]);
  assert.deepEqual(s.pending.map((r) => r.seq), [3, 2]);
  s = tailReducer(s, { type: 'resume' });
  assert.equal(s.paused, false);
  assert.deepEqual(s.pending, []);
  assert.deepEqual(s.rows.map((r) => r.seq), [3, 2, 1]);
  s = tailReducer(s, { type: 'reset' });
  assert.deepEqual(s.rows, []);
});

test('toTailRow: device plugin registrations and allocation failures (the latter under their pod)', () => {
  const reg = toTailRow({ type: 'device', seq: 8, time: T, resource: 'example.com/fake', change: 'registered', message: 'device plugin registered on fake.sock' });
  assert.deepEqual([reg.label, reg.summary, reg.tone, reg.pod], ['PluginRegistered', 'example.com/fake: device plugin registered on fake.sock', 'ok', undefined]);
  const failed = toTailRow({ type: 'device', seq: 9, time: T, resource: 'example.com/fake', change: 'allocationFailed', message: 'no healthy devices', pod: pod('default', 'gpu'), container: 'c' });
  assert.deepEqual([failed.label, failed.summary, failed.tone, failed.namespace, failed.pod], ['AllocationFailed', 'example.com/fake container c: no healthy devices', 'bad', 'default', 'gpu']);
});
