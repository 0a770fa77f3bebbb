// The timeline's lines: a crash-looping container's back-off shows its delay, a probe span its count, and pages
// merge newest first with a grown span replacing its older copy (same id).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mergeEntries, toTimelineLine, type RecorderEntry } from './timeline-model.ts';

const e = (over: Partial<RecorderEntry>): RecorderEntry => ({ id: 1, time: '2026-11-26T06:00:00.000Z', count: 1, kind: 'event', ...over }) as RecorderEntry;

describe('timeline model', () => {
  it('back-off: the delay in the label, the kubelet\'s message in the summary', () => {
    const l = toTimelineLine(e({ kind: 'backoff', container: 'app', reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=app pod=c_default(u)', details: { delayMs: 40_000 } }));
    assert.deepEqual([l.label, l.summary, l.tone], ['back-off 40s', 'app: back-off 40s restarting failed container=app pod=c_default(u)', 'warn']);
    assert.equal(toTimelineLine(e({ kind: 'backoff', details: { delayMs: 300_000 } })).label, 'back-off 5m');
    assert.equal(toTimelineLine(e({ kind: 'backoff', count: 4, details: { delayMs: 300_000 } })).label, 'back-off 5m ×4', 'the sync attempts of one back-off, folded');
  });

  it('a probe span: type, result and count; the span end kept when it differs', () => {
    const l = toTimelineLine(e({ kind: 'probe', reason: 'success', count: 120, last: '2026-11-26T06:02:00.000Z', details: { probeType: 'readiness' } }));
    assert.deepEqual([l.label, l.tone, l.last], ['readiness success ×120', 'ok', '2026-11-26T06:02:00.000Z']);
  });

  it('kills warn, refusals are bad, admissions ok', () => {
    assert.equal(toTimelineLine(e({ kind: 'kill', reason: 'Killing' })).tone, 'warn');
    assert.equal(toTimelineLine(e({ kind: 'admission', reason: 'OutOfmemory' })).tone, 'bad');
    assert.equal(toTimelineLine(e({ kind: 'admission', reason: 'Admitted' })).tone, 'ok');
  });

  it('merges pages newest first, a grown span replacing its older copy', () => {
    const merged = mergeEntries(
      [e({ id: 3, time: '2026-11-26T06:00:03.000Z' }), e({ id: 2, kind: 'probe', count: 5, time: '2026-11-26T06:00:01.000Z' })],
      [e({ id: 2, kind: 'probe', count: 2, time: '2026-11-26T06:00:01.000Z' }), e({ id: 1 })],
    );
    assert.deepEqual(merged.map((x) => [x.id, x.count]), [[3, 1], [2, 5], [1, 1]]);
  });
});
