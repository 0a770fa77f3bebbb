import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerRecord } from '../state/types.ts';
import type { RuntimeContext } from './context.ts';
import { dirUsage, StatsSampler } from './stats.ts';

test('dirUsage: apparent sizes or allocated blocks (du), inodes, capped', () => {
  const d = mkdtempSync(join(tmpdir(), 'rt-du-'));
  try {
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'sub', 'a'), Buffer.alloc(3 * 1024 * 1024, 1));
    writeFileSync(join(d, 'b'), 'hi');
    const apparent = dirUsage(d);
    assert.equal(apparent.inodes, 3);
    assert.ok(apparent.bytes >= 3 * 1024 * 1024 + 2 && apparent.bytes < 3 * 1024 * 1024 + 8192, String(apparent.bytes));
    const du = dirUsage(d, { allocated: true });
    assert.ok(du.bytes >= 3 * 1024 * 1024, `allocated ${du.bytes}`);
    assert.equal(dirUsage(d, { limit: 1 }).inodes, 2, 'stops after the directory holding the limit');
    assert.deepEqual(dirUsage(join(d, 'missing')), { bytes: 0, inodes: 0 });
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
});

test('StatsSampler: the writable layer is walked once, then answered from the cache until it is stale', async () => {
  const root = mkdtempSync(join(tmpdir(), 'rt-stats-'));
  try {
    const upper = join(root, 'containers', 'c1', 'upper');
    mkdirSync(upper, { recursive: true });
    writeFileSync(join(upper, 'f'), Buffer.alloc(1024 * 1024, 1));
    const ctx = { rootDir: root, cgroups: undefined } as unknown as RuntimeContext;
    const rec = { id: 'c1', state: 'CONTAINER_EXITED', cgroupPath: '' } as unknown as ContainerRecord;
    const fresh = new StatsSampler(ctx, 60_000);
    const first = fresh.sample(rec);
    assert.ok((first?.writableBytes ?? 0) >= 1024 * 1024);
    assert.equal(first?.writableMount, upper);
    writeFileSync(join(upper, 'g'), Buffer.alloc(2 * 1024 * 1024, 1));
    assert.equal(fresh.sample(rec)?.writableBytes, first?.writableBytes, 'cached within the TTL: no walk per call');
    const stale = new StatsSampler(ctx, 0);
    const before = stale.sample(rec)?.writableBytes ?? 0;
    writeFileSync(join(upper, 'h'), Buffer.alloc(1024 * 1024, 1));
    assert.equal(stale.sample(rec)?.writableBytes, before, 'a stale entry answers the old figure and re-walks in the background');
    await new Promise((r) => setImmediate(r));
    assert.ok((stale.sample(rec)?.writableBytes ?? 0) >= before + 1024 * 1024, 'the background walk landed');
    stale.forget('c1');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
