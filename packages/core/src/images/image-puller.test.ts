import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImagePuller, type PullerConfig } from './image-puller.ts';

/** Starts n pulls that finish only when released; records the peak concurrency and start order. */
async function drive(config: PullerConfig, n: number) {
  const puller = new ImagePuller(config);
  const releases: Array<() => void> = [];
  const started: number[] = [];
  let peak = 0;
  const all = Array.from({ length: n }, (_, i) =>
    puller.run(
      () =>
        new Promise<number>((resolve) => {
          started.push(i);
          peak = Math.max(peak, puller.running());
          releases.push(() => resolve(i));
        }),
    ),
  );
  const settle = () => new Promise((r) => setImmediate(r));
  await settle();
  while (releases.length > 0) {
    releases.shift()?.();
    await settle();
  }
  assert.deepEqual(await Promise.all(all), Array.from({ length: n }, (_, i) => i));
  return { peak, started, puller };
}

test('image puller concurrency: table', async () => {
  const cases: Array<[string, PullerConfig, number]> = [
    ['serialized by default', {}, 1],
    ['serializeImagePulls true ignores maxParallel', { serializeImagePulls: true, maxParallelImagePulls: 3 }, 1],
    ['parallel with a limit', { serializeImagePulls: false, maxParallelImagePulls: 2 }, 2],
    ['parallel without a limit', { serializeImagePulls: false }, 5],
  ];
  for (const [name, config, peak] of cases) {
    const r = await drive(config, 5);
    assert.equal(r.peak, peak, name);
    assert.deepEqual(r.started, [0, 1, 2, 3, 4], `${name}: arrival order`);
    assert.equal(r.puller.running(), 0, name);
  }
});

test('a failed pull frees its slot', async () => {
  const p = new ImagePuller();
  await assert.rejects(p.run(() => Promise.reject(new Error('boom'))), /boom/);
  assert.equal(await p.run(async () => 7), 7);
  assert.equal(p.running(), 0);
});
