import { test } from 'node:test';
import assert from 'node:assert/strict';
import { healthReport } from './health.ts';

test('healthReport', () => {
  const base = { now: 1_000_000, syncLoopLastIteration: 999_000, syncFrequencyMs: 60_000, pleg: { ok: true }, runtimeReady: true, runtimeMessage: '' };
  const cases = [
    { name: 'all good', in: base, failing: [] },
    { name: 'sync loop stalled > 5 min', in: { ...base, syncLoopLastIteration: 1_000_000 - 300_001 }, failing: ['syncloop'] },
    { name: 'sync loop not running', in: { ...base, syncLoopLastIteration: undefined }, failing: ['syncloop'] },
    { name: 'pleg unhealthy', in: { ...base, pleg: { ok: false, message: 'pleg was last seen active 3m1s ago; threshold is 3m0s' } }, failing: ['pleg'] },
    { name: 'runtime down', in: { ...base, runtimeReady: false, runtimeMessage: 'container runtime is down' }, failing: ['runtime'] },
  ];
  for (const c of cases) {
    const r = healthReport(c.in);
    assert.deepEqual(r.checks.filter((x) => !x.ok).map((x) => x.name), c.failing, c.name);
    assert.equal(r.ok, c.failing.length === 0, c.name);
    assert.deepEqual(r.checks.map((x) => x.name), ['ping', 'log', 'syncloop', 'pleg', 'runtime']);
  }
  const p = healthReport({ ...base, pleg: { ok: false, message: 'pleg was last seen active 3m1s ago; threshold is 3m0s' } });
  assert.equal(p.checks.find((x) => x.name === 'pleg')?.message, 'PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s');
});
