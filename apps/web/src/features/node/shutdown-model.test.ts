import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ShutdownBusEvent, ShutdownProgress } from '../../lib/api-types.ts';
import { groupLabel, progressFromEvent, secondsLeft, shutdownSummary, shutdownView } from './shutdown-model.ts';

const T0 = Date.parse('2026-11-26T09:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
// shutdownGracePeriod 30s, shutdownGracePeriodCriticalPods 10s → groups of 20 s and 10 s (upstream migrateConfig).
const idle: ShutdownProgress = {
  phase: 'idle',
  groups: [
    { priority: 0, shutdownGracePeriodSeconds: 20, state: 'pending', pods: [] },
    { priority: 2_000_000_000, shutdownGracePeriodSeconds: 10, state: 'pending', pods: [] },
  ],
};
const running: ShutdownProgress = {
  phase: 'shuttingDown', message: 'node is shutting down', startTime: at(0),
  groups: [
    {
      priority: 0, shutdownGracePeriodSeconds: 20, state: 'running', startedAt: at(0),
      pods: [
        { namespace: 'default', name: 'web', uid: 'u1', gracePeriodSeconds: 5, state: 'terminated', startedAt: at(0), finishedAt: at(2) },
        { namespace: 'default', name: 'db', uid: 'u2', gracePeriodSeconds: 20, state: 'terminating', startedAt: at(0) },
        { namespace: 'shop', name: 'cart', uid: 'u3', gracePeriodSeconds: 3, state: 'failed', startedAt: at(0), finishedAt: at(3), error: 'DeadlineExceeded' },
      ],
    },
    { priority: 2_000_000_000, shutdownGracePeriodSeconds: 10, state: 'pending', pods: [] },
  ],
};

test('idle: armed, with each group\'s period named', () => {
  const v = shutdownView(idle, T0)!;
  assert.equal(v.headline, 'Graceful shutdown armed: regular pods 20 s, critical pods 10 s');
  assert.equal(v.tone, 'ok');
  assert.equal(v.terminating, 0);
  assert.equal(shutdownView(null, T0), undefined, 'no shutdown manager: no panel content');
});

test('shutting down: countdowns of the running group and of each terminating pod, finished pods without one', () => {
  const v = shutdownView(running, T0 + 7_400)!;
  assert.equal(v.headline, 'Node is shutting down: 1 pod terminating');
  assert.equal(v.tone, 'bad');
  const [regular, critical] = v.groups;
  assert.deepEqual([regular!.label, regular!.state, regular!.remainingSeconds, regular!.tone], ['regular pods', 'running', 13, 'warn']);
  assert.deepEqual(regular!.pods.map((p) => [p.name, p.state, p.remainingSeconds, p.tone]), [
    ['web', 'terminated', undefined, 'done'],
    ['db', 'terminating', 13, 'warn'],
    ['cart', 'failed', undefined, 'bad'],
  ]);
  assert.equal(regular!.pods[2]!.error, 'DeadlineExceeded');
  assert.deepEqual([critical!.state, critical!.remainingSeconds, critical!.tone], ['pending', undefined, 'info']);
  // Past the grace the countdown stays at 0 (the kill is still in flight), never negative, never above the grace.
  assert.equal(shutdownView(running, T0 + 60_000)!.groups[0]!.pods[1]!.remainingSeconds, 0);
  assert.equal(secondsLeft(at(5), 20, T0), 20, 'a clock behind the agent never reads above the period');
});

test('done and cancelled', () => {
  assert.equal(shutdownView({ ...running, phase: 'done', endTime: at(20) }, T0)!.headline, 'Shutdown processed: pods terminated, the machine goes down');
  const c = shutdownView({ ...idle, phase: 'cancelled' }, T0)!;
  assert.equal(c.tone, 'warn');
  assert.match(c.headline, /^Shutdown cancelled; graceful shutdown armed again: regular pods 20 s/);
});

test('group labels, tail summary, and live events never going back in seq', () => {
  assert.deepEqual([groupLabel(0), groupLabel(2_000_000_000), groupLabel(2_000_001_000), groupLabel(1000)], ['regular pods', 'critical pods', 'critical pods', 'priority ≥ 1000']);
  assert.equal(shutdownSummary(running), 'regular pods running (1/3 terminating)');
  assert.equal(shutdownSummary(idle), 'groups: regular pods 20 s, critical pods 10 s');
  const ev = (seq: number, progress: ShutdownProgress): ShutdownBusEvent => ({ type: 'shutdown', seq, time: at(0), progress });
  const a = progressFromEvent(undefined, ev(5, running));
  assert.equal(progressFromEvent(a, ev(4, idle)).progress.phase, 'shuttingDown', 'an older event is ignored');
  assert.equal(progressFromEvent(a, ev(6, idle)).progress.phase, 'idle');
});
