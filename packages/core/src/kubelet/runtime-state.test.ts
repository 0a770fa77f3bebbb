import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CriError, type CriCallOptions } from '../cri/types.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { RuntimeState } from './runtime-state.ts';

const ENDPOINT = 'unix:///run/rt.sock';

/** A CRI whose Version fails fast (UNAVAILABLE) while down; a wait-for-ready call waits for up() or its deadline. */
function fakeCri(clock: FakeClock) {
  let up = true;
  const calls: CriCallOptions[] = [];
  const waiting: Array<() => void> = [];
  const version = (_req?: unknown, o: CriCallOptions = {}) => {
    calls.push(o);
    const ok = { version: '0.1.0', runtimeName: 'rt', runtimeVersion: '1', runtimeApiVersion: 'v1' };
    if (up) return Promise.resolve(ok);
    if (!o.waitForReady) return Promise.reject(new CriError('UNAVAILABLE', `container runtime is not reachable at ${ENDPOINT} (connect ENOENT)`, { details: 'connect ENOENT' }));
    return new Promise<typeof ok>((resolve, reject) => {
      const t = clock.setTimeout(() => reject(new CriError('DEADLINE_EXCEEDED', 'CRI Version timed out', { details: 'Deadline exceeded' })), o.timeoutMs ?? 120_000);
      waiting.push(() => {
        t.cancel();
        resolve(ok);
      });
    });
  };
  const status = () => Promise.resolve({ status: { conditions: [{ type: 'RuntimeReady', status: true }, { type: 'NetworkReady', status: true }] } });
  const cri = { endpoint: ENDPOINT, version, status } as unknown as ConstructorParameters<typeof RuntimeState>[0]['cri'];
  return {
    cri,
    calls,
    down: () => void (up = false),
    up: () => {
      up = true;
      for (const w of waiting.splice(0)) w();
    },
  };
}

test('a runtime that goes away is reported down (with what is wrong) and ready again as soon as it answers', async () => {
  const clock = new FakeClock();
  const rt = fakeCri(clock);
  const state = new RuntimeState({ cri: rt.cri, clock, logger: nullLogger });
  state.start();
  await clock.step(0);
  assert.equal(state.ready, true);
  rt.down();
  await clock.step(5_000);
  assert.equal(state.ready, false);
  assert.match(state.message, /container runtime is down: .*unix:\/\/\/run\/rt\.sock/);
  // The outage lasts: checks keep going at most ~2 s apart (1 s cap + the 1 s wait), the message stays the diagnosis.
  await clock.step(60_000);
  const during = rt.calls.length;
  await clock.step(10_000);
  assert.ok(rt.calls.length - during >= 8, `checks in 10 s of outage: ${rt.calls.length - during}`);
  assert.equal(state.message, 'container runtime is down: no runtime socket at unix:///run/rt.sock (retrying)', 'not a timeout');
  assert.ok(rt.calls.some((c) => c.waitForReady === true && (c.timeoutMs ?? 0) > 0), 'a wait-for-ready call with a deadline');
  // The runtime answers again: ready within the wait, not at the next poll.
  await clock.step(100);
  rt.up();
  await clock.step(0);
  assert.equal(state.ready, true);
  state.stop();
  assert.equal(clock.pending(), 0);
});

test('while ready, a check fails fast (no waiting on a dead runtime)', async () => {
  const clock = new FakeClock();
  const rt = fakeCri(clock);
  const state = new RuntimeState({ cri: rt.cri, clock, logger: nullLogger });
  await state.check();
  assert.equal(state.ready, true);
  rt.down();
  await state.check();
  assert.equal(state.ready, false);
  assert.deepEqual(rt.calls.at(-1), {}, 'the check that found it down did not wait');
});
