/**
 * realClock with delays beyond what a Node timer holds (2^31-1 ms, about 24.8 days: a longer one fires after 1 ms
 * with a TimeoutOverflowWarning). A certificate manager waits months for its rotation deadline (70–90 % of a
 * one-year certificate); handed to Node as is, that wait would end at once and rotate in a loop. The timers Node
 * is asked for are recorded (globalThis.setTimeout wrapped) and fired by hand.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { realClock } from './clock.ts';

/** The largest delay a Node timer holds (the Node docs of setTimeout: 1 to 2147483647 ms). */
const MAX_TIMER_MS = 2147483647;

interface Asked {
  fn: () => void;
  ms: number;
}

function recordTimers(): Asked[] {
  const asked: Asked[] = [];
  const real = globalThis.setTimeout;
  mock.method(globalThis, 'setTimeout', (fn: () => void, ms: number) => {
    asked.push({ fn, ms });
    return real(() => {}, 0);
  });
  return asked;
}

afterEach(() => mock.restoreAll());

describe('realClock and long delays', () => {
  const month = 30 * 86_400_000;

  it('setTimeout of 8 months: Node timers of at most 2^31-1 ms one after another, the callback after the last', () => {
    const asked = recordTimers();
    let fired = 0;
    realClock.setTimeout(() => fired++, 8 * month);
    for (let i = 0; i < 20 && fired === 0; i++) asked[i]?.fn();
    assert.ok(asked.every((a) => a.ms <= MAX_TIMER_MS), `delays asked: ${asked.map((a) => a.ms).join(', ')}`);
    assert.equal(asked.reduce((s, a) => s + a.ms, 0), 8 * month);
    assert.equal(asked.length, Math.ceil((8 * month) / MAX_TIMER_MS));
    assert.equal(fired, 1);
  });

  it('short delays are one timer as before; sleep of 2 months is chained the same way and can be aborted', async () => {
    const asked = recordTimers();
    realClock.setTimeout(() => {}, 1500);
    assert.deepEqual(asked.map((a) => a.ms), [1500]);
    const abort = new AbortController();
    const slept = realClock.sleep(2 * month, abort.signal);
    assert.equal(asked.at(-1)?.ms, MAX_TIMER_MS);
    abort.abort(new Error('stop'));
    await assert.rejects(slept, /stop/);
  });
});
