import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectCgroupLayout } from '../cm/mountinfo.ts';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { createOomWatcher } from './create-oom-watcher.ts';
import type { KmsgSource } from './types.ts';

const quietSource = (): KmsgSource & { started: number } => ({ started: 0, start() { this.started++; }, stop() {} });

for (const kind of ['v1', 'v2'] as const) {
  test(`${kind}: memory.events polling only where memory lives in the unified hierarchy`, async () => {
    const f = makeFixture(kind);
    try {
      const l = await detectCgroupLayout(f.fs);
      assert.ok(l.ok);
      const clock = new FakeClock();
      const source = quietSource();
      const polled: number[] = [];
      const h = createOomWatcher({ fs: f.fs, clock, logger: nullLogger, layout: l.layout, sink: {}, cgroups: () => (polled.push(1), []), source });
      h.start();
      await clock.step(2000);
      assert.equal(source.started, 1);
      assert.equal(polled.length, kind === 'v2' ? 1 : 0);
      h.stop();
      assert.equal(clock.pending(), 0);
    } finally {
      f.cleanup();
    }
  });
}
