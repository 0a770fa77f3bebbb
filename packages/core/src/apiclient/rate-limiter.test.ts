import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../util/clock.ts';
import { BlockingTokenBucket } from './rate-limiter.ts';

describe('BlockingTokenBucket (kubeAPIQPS / kubeAPIBurst)', () => {
  it('lets a burst through, then one request per 1/qps, in order', async () => {
    const clock = new FakeClock();
    const bucket = new BlockingTokenBucket(clock, 5, 2);
    const done: number[] = [];
    for (let i = 0; i < 5; i++) void bucket.wait().then(() => done.push(i));
    await clock.step(0);
    assert.deepEqual(done, [0, 1]);
    await clock.step(199);
    assert.deepEqual(done, [0, 1]);
    await clock.step(1);
    assert.deepEqual(done, [0, 1, 2]);
    await clock.step(400);
    assert.deepEqual(done, [0, 1, 2, 3, 4]);
  });

  it('qps 0 disables limiting', async () => {
    const bucket = new BlockingTokenBucket(new FakeClock(), 0, 0);
    for (let i = 0; i < 100; i++) await bucket.wait();
  });
});
