import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WirePod } from '../../lib/api-types.ts';
import type { K8sBusEvent, NodeletEvent, PodStatusBusEvent } from '@nodelet/agent/types';
import { addDetailEvent, cacheEffects, patchDetailStatus, patchListStatus, removeFromList } from './cache-updates.ts';

const T = '2026-11-22T12:00:00.000Z';
const ref = (name: string, uid = `u-${name}`) => ({ namespace: 'default', name, uid });
const pod = (name: string, phase = 'Pending', uid = `u-${name}`): WirePod => ({ metadata: { namespace: 'default', name, uid }, status: { phase } });
const status = (name: string, phase: string, seq = 1, uid?: string): PodStatusBusEvent => ({
  type: 'podStatus', seq, time: T, pod: ref(name, uid), phase, ready: phase === 'Running', containers: [], status: { phase },
});
const k8s = (seq: number, name: string, kind = 'Pod'): K8sBusEvent => ({
  type: 'k8sEvent', seq, time: T, eventType: 'Normal', reason: 'Started', message: 'm', count: 1, firstTimestamp: T, lastTimestamp: T,
  involvedObject: { kind, namespace: 'default', name },
});

test('cacheEffects per event type', () => {
  const cases: Array<[NodeletEvent, string[]]> = [
    [status('a', 'Running'), ['list-patch-status', 'detail-patch-status']],
    [{ type: 'podConfig', seq: 1, time: T, pod: ref('a'), op: 'ADD', source: 'file' }, ['list-invalidate', 'detail-invalidate', 'node-invalidate']],
    [{ type: 'podConfig', seq: 1, time: T, pod: ref('a'), op: 'UPDATE', source: 'file' }, ['list-invalidate', 'detail-invalidate', 'node-invalidate']],
    [{ type: 'podConfig', seq: 1, time: T, pod: ref('a'), op: 'REMOVE', source: 'file' }, ['list-remove', 'detail-invalidate', 'node-invalidate']],
    [{ type: 'podConfig', seq: 1, time: T, pod: ref('a'), op: 'DELETE', source: 'api' }, ['list-invalidate', 'detail-invalidate', 'node-invalidate']],
    [k8s(1, 'a'), ['detail-add-event']],
    [k8s(1, 'n1', 'Node'), []],
    [{ type: 'runtime', seq: 1, time: T, ready: false, message: 'x' }, ['node-invalidate']],
    [{ type: 'pleg', seq: 1, time: T, pod: ref('a'), pleg: 'ContainerStarted', containerId: 'c' }, []],
    [{ type: 'probe', seq: 1, time: T, pod: ref('a'), container: 'c', probeType: 'liveness', result: 'failure', latencyMs: 1 }, []],
  ];
  for (const [e, want] of cases) assert.deepEqual(cacheEffects(e).map((x) => x.kind), want, `${e.type}`);
});

test('patchListStatus replaces only the matching pod', () => {
  const list = [pod('a'), pod('b')];
  const r = patchListStatus(list, status('b', 'Running'));
  assert.equal(r.found, true);
  assert.equal(r.pods?.[1]?.status?.phase, 'Running');
  assert.equal(r.pods?.[0], list[0]);
  assert.equal(list[1]?.status?.phase, 'Pending', 'input not mutated');
  assert.equal(patchListStatus(list, status('zzz', 'Running')).found, false);
  assert.equal(patchListStatus(list, status('a', 'Running', 1, 'other-uid')).found, false, 'a recreated pod (new uid) is refetched');
  assert.deepEqual(patchListStatus(undefined, status('a', 'Running')), { pods: undefined, found: false });
});

test('removeFromList', () => {
  const list = [pod('a'), pod('b')];
  assert.deepEqual(removeFromList(list, { namespace: 'default', name: 'a' })?.map((p) => p.metadata?.name), ['b']);
  assert.equal(removeFromList(list, { namespace: 'other', name: 'a' }), list);
});

test('detail reducers', () => {
  const detail = { pod: pod('a'), events: [k8s(1, 'a')] };
  assert.equal(patchDetailStatus(detail, status('a', 'Failed'))?.pod.status?.phase, 'Failed');
  assert.equal(patchDetailStatus(detail, status('b', 'Failed')), detail);
  assert.equal(patchDetailStatus(undefined, status('a', 'Failed')), undefined);
  assert.equal(addDetailEvent(detail, k8s(1, 'a')), detail, 'dedupe by seq');
  assert.deepEqual(addDetailEvent(detail, k8s(3, 'a'))?.events.map((e) => e.seq), [1, 3]);
  const capped = addDetailEvent(addDetailEvent(detail, k8s(3, 'a'), 2), k8s(2, 'a'), 2);
  assert.deepEqual(capped?.events.map((e) => e.seq), [2, 3]);
});
