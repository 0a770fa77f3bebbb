import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { runShutdown } from './shutdown.ts';

describe('runShutdown', () => {
  it('runs steps in order; a failing or hanging step does not block the rest', async () => {
    const clock = new FakeClock();
    const order: string[] = [];
    const done = runShutdown(
      [
        { name: 'not-ready', timeoutMs: 1000, run: () => void order.push('not-ready') },
        { name: 'stop-accepting', timeoutMs: 1000, run: () => { order.push('stop-accepting'); throw new Error('boom'); } },
        { name: 'close-streams', timeoutMs: 2000, run: () => new Promise<void>(() => order.push('close-streams')) },
        { name: 'stop-kubelet', timeoutMs: 1000, run: async () => void order.push('stop-kubelet') },
      ],
      { clock, logger: new RecordingLogger().logger },
    );
    await clock.step(0);
    assert.equal(clock.pending(), 1, 'the hanging step has its timeout armed');
    await clock.step(1999);
    assert.deepEqual(order, ['not-ready', 'stop-accepting', 'close-streams'], 'still waiting on the hanging step');
    await clock.step(1);
    const results = await done;
    assert.deepEqual(order, ['not-ready', 'stop-accepting', 'close-streams', 'stop-kubelet']);
    assert.deepEqual(
      results.map((r) => [r.name, r.outcome, r.error]),
      [
        ['not-ready', 'done', undefined],
        ['stop-accepting', 'failed', 'boom'],
        ['close-streams', 'timedOut', undefined],
        ['stop-kubelet', 'done', undefined],
      ],
    );
    assert.equal(clock.pending(), 0, 'no timers left behind');
  });
});
