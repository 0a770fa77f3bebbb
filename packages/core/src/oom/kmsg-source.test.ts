import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FakeClock } from '../util/clock.ts';
import { RecordingLogger, nullLogger } from '../util/logger.ts';
import { KmsgFileSource } from './kmsg-source.ts';

test('skips what was there at start, then delivers new data on each poll', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nodelet-kmsg-'));
  try {
    const file = path.join(dir, 'kmsg');
    writeFileSync(file, '6,1,1,-;old record\n');
    const clock = new FakeClock();
    const got: string[] = [];
    const src = new KmsgFileSource({ clock, logger: nullLogger }, { path: file, pollIntervalMs: 500 });
    src.start((r) => got.push(r));
    assert.deepEqual(got, []);
    appendFileSync(file, '6,2,2,-;new record\n');
    await clock.step(500);
    assert.deepEqual(got, ['6,2,2,-;new record\n']);
    src.stop();
    assert.equal(clock.pending(), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing device is logged, not thrown', () => {
  const rec = new RecordingLogger();
  const src = new KmsgFileSource({ clock: new FakeClock(), logger: rec.logger }, { path: '/nonexistent/kmsg' });
  src.start(() => {});
  assert.equal(rec.records[0]?.msg, 'cannot open kernel log; OOM watcher disabled');
  src.stop();
});

const root = process.getuid?.() === 0;
test('real /dev/kmsg: sees a record written after start', { skip: root ? false : 'needs root' }, async () => {
  const clock = new FakeClock();
  const got: string[] = [];
  const src = new KmsgFileSource({ clock, logger: nullLogger });
  src.start((r) => got.push(r));
  const marker = `nodelet-kmsg-test-${randomBytes(4).toString('hex')}`;
  appendFileSync('/dev/kmsg', `<6>${marker}\n`);
  await clock.step(1000);
  src.stop();
  assert.ok(got.some((r) => r.includes(marker)), `marker not seen in ${got.length} records`);
});
