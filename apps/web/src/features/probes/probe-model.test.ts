import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProbeBusEvent, ProbeWorkerInfo } from '../../lib/api-types.ts';
import { addProbeEvents, containerProbes, patchWorkers, probeView, recentFailures, stripLayout, type ProbeTick } from './probe-model.ts';

const pod = { namespace: 'default', name: 'web', uid: 'u1' };
const ev = (seq: number, result: ProbeBusEvent['result'], extra: Partial<ProbeBusEvent> = {}): ProbeBusEvent => ({
  type: 'probe', seq, time: new Date(Date.UTC(2026, 10, 22, 12, 0, seq)).toISOString(), pod, container: 'app',
  probeType: 'readiness', result, latencyMs: seq, ...extra,
});
const worker = (extra: Partial<ProbeWorkerInfo> = {}): ProbeWorkerInfo => ({
  pod, container: 'app', probeType: 'readiness', handler: 'exec', target: 'test -f /tmp/ready', initialDelaySeconds: 0,
  periodSeconds: 1, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3, containerId: 'c1', consecutive: 0, onHold: false, ...extra,
});

test('addProbeEvents keys by container/type, dedupes by seq, orders and caps', () => {
  let s = addProbeEvents({}, [ev(2, 'failure'), ev(1, 'failure'), ev(2, 'failure')]);
  assert.deepEqual(s['app/readiness']?.map((t) => t.seq), [1, 2]);
  const same = addProbeEvents(s, [ev(1, 'failure')]);
  assert.equal(same, s, 'nothing new → same object');
  s = addProbeEvents(s, [ev(3, 'success'), ev(4, 'success', { probeType: 'liveness' })], 2);
  assert.deepEqual(s['app/readiness']?.map((t) => t.seq), [2, 3]);
  assert.deepEqual(s['app/liveness']?.map((t) => t.result), ['success']);
  assert.equal(addProbeEvents(s, []), s);
});

test('patchWorkers applies a run to the matching row only', () => {
  const list = [worker(), worker({ probeType: 'liveness' })];
  const r1 = patchWorkers(list, ev(5, 'failure', { output: 'no file', effective: 'failure' }));
  assert.equal(r1.found, true);
  assert.deepEqual(
    [r1.list?.[0]?.lastResult, r1.list?.[0]?.effective, r1.list?.[0]?.consecutive, r1.list?.[0]?.lastRun?.output],
    ['failure', 'failure', 1, 'no file'],
  );
  assert.equal(r1.list?.[1], list[1]);
  const r2 = patchWorkers(r1.list, ev(6, 'failure'));
  assert.equal(r2.list?.[0]?.consecutive, 2);
  assert.equal(r2.list?.[0]?.effective, 'failure', 'keeps the effective result when the event has none');
  const r3 = patchWorkers(r2.list, ev(7, 'success', { effective: 'success' }));
  assert.deepEqual([r3.list?.[0]?.effective, r3.list?.[0]?.consecutive], ['success', 1]);
  const stale = patchWorkers(r3.list, ev(1, 'failure'));
  assert.equal(stale.list?.[0]?.lastResult, 'success', 'an older event does not overwrite a newer run');
  assert.equal(patchWorkers(list, ev(8, 'success', { pod: { ...pod, uid: 'other' } })).found, false);
  assert.deepEqual(patchWorkers(undefined, ev(1, 'success')), { list: undefined, found: false });
});

test('probeView result, tone and label', () => {
  const cases: Array<[Partial<ProbeWorkerInfo>, string, string, string, string]> = [
    [{}, 'unknown', 'info', 'unknown', ''],
    [{ effective: 'success', lastResult: 'success', consecutive: 4 }, 'success', 'ok', 'success', 'last 4 runs: success'],
    [{ effective: 'success', lastResult: 'failure', consecutive: 1 }, 'success', 'ok', 'success', 'last run: failure'],
    [{ lastResult: 'failure', consecutive: 2 }, 'failure', 'warn', 'failure', 'last 2 runs: failure'],
    [{ probeType: 'liveness', effective: 'failure', lastResult: 'failure', consecutive: 3 }, 'failure', 'bad', 'failure', 'last 3 runs: failure'],
    [{ onHold: true, probeType: 'startup', effective: 'success', lastResult: 'success', consecutive: 0 }, 'success', 'ok', 'success', 'done: the container started'],
    [{ onHold: true, probeType: 'liveness', effective: 'failure', lastResult: 'failure', consecutive: 0 }, 'failure', 'bad', 'failure', 'on hold until the container restarts'],
  ];
  for (const [w, result, tone, label, streak] of cases) {
    const v = probeView(worker(w));
    assert.deepEqual([v.result, v.tone, v.label, v.streak], [result, tone, label, streak], JSON.stringify(w));
  }
});

test('containerProbes orders startup, liveness, readiness and filters by container', () => {
  const list = [worker(), worker({ probeType: 'liveness' }), worker({ probeType: 'startup' }), worker({ container: 'other' })];
  assert.deepEqual(containerProbes(list, 'app').map((v) => v.type), ['startup', 'liveness', 'readiness']);
});

test('recentFailures newest first, repeats collapsed', () => {
  const ticks: ProbeTick[] = [
    { seq: 1, time: 't1', result: 'failure', output: 'a', latencyMs: 1 },
    { seq: 2, time: 't2', result: 'failure', output: 'b', latencyMs: 1 },
    { seq: 3, time: 't3', result: 'failure', output: 'b', latencyMs: 1 },
    { seq: 4, time: 't4', result: 'success', latencyMs: 1 },
    { seq: 5, time: 't5', result: 'failure', latencyMs: 1 },
  ];
  assert.deepEqual(recentFailures(ticks), [
    { time: 't5', output: 'probe failed (no output)', count: 1 },
    { time: 't3', output: 'b', count: 2 },
    { time: 't1', output: 'a', count: 1 },
  ]);
  assert.equal(recentFailures(ticks, 1).length, 1);
});

test('stripLayout right-aligns the newest slots', () => {
  const ticks: ProbeTick[] = [1, 2, 3].map((seq) => ({ seq, time: '', result: seq === 2 ? 'failure' : 'success', latencyMs: 0 }));
  const l = stripLayout(ticks, 'readiness', 100, 5);
  assert.deepEqual(l.map((t) => [t.x, t.width, t.tone]), [[41, 18, 'ok'], [61, 18, 'warn'], [81, 18, 'ok']]);
  assert.deepEqual(stripLayout(ticks, 'liveness', 40, 2).map((t) => [t.tick.seq, t.x, t.tone]), [[2, 1, 'bad'], [3, 21, 'ok']]);
});
