import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Probe } from '@kubernetes/client-node';
import { execProbe } from './testing/fakes.ts';
import type { ProbeResult, ProbeType, RunOutcome } from './types.ts';
import { container, setup } from './worker-fixtures.ts';

type Script = Array<RunOutcome | 's' | 'f' | 'hang'>;

interface ThresholdCase {
  name: string;
  type: ProbeType;
  probe: Partial<V1Probe>;
  outcomes: Script;
  /** The cached result after each tick (tick 0 at t=0, then one per periodSeconds=1). */
  expect: ProbeResult[];
  runs: number;
  /** Failure results the sync loop hears (each one: a kill decided by computePodActions). */
  failures?: ProbeType[];
}

const thresholdCases: ThresholdCase[] = [
  {
    name: 'readiness flips to failure only at the 3rd failure in a row',
    type: 'readiness',
    probe: { failureThreshold: 3 },
    outcomes: ['s', 'f', 'f', 'f', 's'],
    expect: ['success', 'success', 'success', 'failure', 'success'],
    runs: 5,
  },
  {
    name: 'readiness successThreshold 2 needs two successes in a row',
    type: 'readiness',
    probe: { successThreshold: 2, failureThreshold: 1 },
    outcomes: ['s', 's', 'f', 's', 's'],
    expect: ['failure', 'success', 'failure', 'failure', 'success'],
    runs: 5,
  },
  {
    name: 'a success resets the failure run',
    type: 'readiness',
    probe: { failureThreshold: 2 },
    outcomes: ['s', 'f', 's', 'f', 's', 'f', 'f'],
    expect: ['success', 'success', 'success', 'success', 'success', 'success', 'failure'],
    runs: 7,
  },
  {
    name: 'liveness failures below the threshold keep success',
    type: 'liveness',
    probe: { failureThreshold: 3 },
    outcomes: ['f', 'f', 's', 'f', 'f', 's'],
    expect: ['success', 'success', 'success', 'success', 'success', 'success'],
    runs: 6,
  },
  {
    name: 'liveness failure at the threshold is reported once and holds the worker',
    type: 'liveness',
    probe: { failureThreshold: 2 },
    outcomes: ['f', 'f', 'f', 'f'],
    expect: ['success', 'failure', 'failure', 'failure'],
    runs: 2,
    failures: ['liveness'],
  },
  {
    name: 'liveness failure with a probe-level terminationGracePeriodSeconds (the kill grace is computePodActions\'s)',
    type: 'liveness',
    probe: { failureThreshold: 1, terminationGracePeriodSeconds: 7 },
    outcomes: ['f'],
    expect: ['failure', 'failure'],
    runs: 1,
    failures: ['liveness'],
  },
  {
    name: 'startup is unknown until it succeeds, then holds',
    type: 'startup',
    probe: { failureThreshold: 3 },
    outcomes: ['f', 's', 's'],
    expect: ['unknown', 'success', 'success', 'success'],
    runs: 2,
  },
  {
    name: 'startup failure at the threshold is reported once and holds the worker',
    type: 'startup',
    probe: { failureThreshold: 2, terminationGracePeriodSeconds: 5 },
    outcomes: ['f', 'f', 'f'],
    expect: ['unknown', 'failure', 'failure'],
    runs: 2,
    failures: ['startup'],
  },
  {
    name: 'liveness initialDelaySeconds: initial success and no runs before the delay',
    type: 'liveness',
    probe: { initialDelaySeconds: 3, failureThreshold: 1 },
    outcomes: ['f'],
    expect: ['success', 'success', 'success', 'failure'],
    runs: 1,
    failures: ['liveness'],
  },
  {
    name: 'readiness initialDelaySeconds: failure before the delay',
    type: 'readiness',
    probe: { initialDelaySeconds: 2 },
    outcomes: ['s'],
    expect: ['failure', 'failure', 'success'],
    runs: 1,
  },
  {
    name: 'a probe prober error (unknown) is thrown away',
    type: 'readiness',
    probe: { failureThreshold: 1 },
    outcomes: [{ status: 'unknown', output: '', error: 'boom' }, 's'],
    expect: ['failure', 'success'],
    runs: 2,
  },
  {
    name: 'a warning counts as success',
    type: 'readiness',
    probe: {},
    outcomes: [{ status: 'warning', output: 'Probe terminated redirects, Response body: ' }],
    expect: ['success'],
    runs: 1,
  },
];

for (const tc of thresholdCases) {
  test(`worker thresholds: ${tc.name}`, async () => {
    const { clock, runner, failures, m } = setup([container(tc.type, execProbe(tc.type, tc.probe))]);
    runner.script(tc.type, tc.outcomes);
    const results = tc.type === 'liveness' ? m.liveness : tc.type === 'readiness' ? m.readiness : m.startup;
    const got: Array<ProbeResult | undefined> = [];
    for (let i = 0; i < tc.expect.length; i++) {
      await clock.step(i === 0 ? 0 : 1000);
      got.push(results.get('app-1'));
    }
    assert.deepEqual(got, tc.expect);
    assert.equal(runner.runs(tc.type), tc.runs);
    assert.deepEqual(
      failures.map((f) => f.probeType),
      tc.failures ?? [],
    );
    m.stop();
  });
}
