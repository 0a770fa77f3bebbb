// Probe runs folded into spans (#16 item 4: "probe successes are collapsed into spans, not rows"): one row per run
// of equal results with its first and last time and count; a different result or effective result opens the next.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ProbeSpans, type ProbeRunInput } from './spans.ts';

const T0 = Date.UTC(2026, 10, 26, 6, 0, 0);
const run = (result: ProbeRunInput['result'], over: Partial<ProbeRunInput> = {}): ProbeRunInput => ({
  time: '',
  pod: { namespace: 'default', name: 'web', uid: 'u1' },
  container: 'app',
  probeType: 'readiness',
  result,
  latencyMs: 2,
  ...over,
});

describe('ProbeSpans', () => {
  it('folds 100 successes into one row with first/last time and count', () => {
    const spans = new ProbeSpans();
    const rows = new Set(Array.from({ length: 100 }, (_, i) => spans.add(run('success'), T0 + i * 10_000)));
    assert.equal(rows.size, 1);
    const [row] = [...rows];
    assert.equal(row?.count, 100);
    assert.equal(row?.timeMs, T0);
    assert.equal(row?.lastMs, T0 + 99 * 10_000);
    assert.equal(row?.entry.kind, 'probe');
    assert.equal(row?.entry.reason, 'success');
    assert.deepEqual(row?.entry.details, { probeType: 'readiness', latencyMs: 2 });
  });

  it('opens a new span on each change of result: success×3, failure×2, success×1 → three rows', () => {
    const spans = new ProbeSpans();
    const seq = ['success', 'success', 'success', 'failure', 'failure', 'success'] as const;
    const rows = seq.map((r, i) => spans.add(run(r, r === 'failure' ? { output: 'HTTP probe failed with statuscode: 503' } : {}), T0 + i * 1000));
    const distinct = [...new Set(rows)];
    assert.deepEqual(distinct.map((r) => [r.entry.reason, r.count, r.timeMs - T0, (r.lastMs ?? 0) - T0]), [
      ['success', 3, 0, 2000],
      ['failure', 2, 3000, 4000],
      ['success', 1, 5000, 5000],
    ]);
    assert.equal(distinct[1]?.entry.message, 'HTTP probe failed with statuscode: 503');
  });

  it('a change of the effective result (failureThreshold reached) opens a new span', () => {
    const spans = new ProbeSpans();
    const a = spans.add(run('failure', { effective: 'success' }), T0);
    const b = spans.add(run('failure', { effective: 'failure' }), T0 + 1000);
    assert.notEqual(a, b);
    assert.equal(b.entry.details?.effective, 'failure');
  });

  it('keeps spans apart per pod UID, container and probe type; forgetPod closes a pod\'s spans', () => {
    const spans = new ProbeSpans();
    const a = spans.add(run('success'), T0);
    assert.notEqual(spans.add(run('success', { probeType: 'liveness' }), T0), a);
    assert.notEqual(spans.add(run('success', { container: 'side' }), T0), a);
    assert.notEqual(spans.add(run('success', { pod: { namespace: 'default', name: 'web', uid: 'u2' } }), T0), a);
    assert.equal(spans.add(run('success'), T0 + 1), a);
    spans.forgetPod('u1');
    assert.equal(spans.size(), 1);
    assert.notEqual(spans.add(run('success'), T0 + 2), a);
  });
});
