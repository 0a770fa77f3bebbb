import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { detectCgroupLayout } from '../cm/mountinfo.ts';
import { FakeClock } from '../util/clock.ts';
import { createCgroupStatsReader } from './cgroup-stats.ts';
import { memoryFromMeminfo, readLoadavg, readProcStat } from './proc-readers.ts';
import { createCgroupSampler } from './sampler.ts';

test('memoryFromMeminfo', () => {
  const KB = 1024;
  const m = memoryFromMeminfo({ MemTotal: 1000 * KB, MemFree: 200 * KB, 'Inactive(file)': 300 * KB, AnonPages: 100 * KB, Cached: 400 * KB });
  assert.equal(m?.usageBytes, 800 * KB);
  assert.equal(m?.workingSetBytes, 500 * KB);
  assert.equal(m?.rssBytes, 100 * KB);
  assert.equal(memoryFromMeminfo({}), undefined);
});

test('v2 node sample falls back to meminfo for memory; proc readers', async () => {
  const f = makeFixture('v2');
  try {
    f.write('/sys/fs/cgroup/cpu.stat', 'usage_usec 10\nuser_usec 5\nsystem_usec 5\n');
    f.write('/proc/meminfo', 'MemTotal: 1000 kB\nMemFree: 100 kB\nInactive(file): 50 kB\n');
    f.write('/proc/stat', 'cpu 1 2 3 4 5 6 7 8\nbtime 99\n');
    f.write('/proc/loadavg', '1.00 2.00 3.00 4/500 1\n');
    const l = await detectCgroupLayout(f.fs);
    assert.ok(l.ok);
    const sample = await createCgroupSampler({ reader: createCgroupStatsReader(f.fs, l.layout), fs: f.fs, clock: new FakeClock() })({ key: '/', cgroup: '/' });
    assert.equal(sample?.cpu?.usageNanoseconds, 10_000);
    assert.equal(sample?.memory?.workingSetBytes, 850 * 1024);
    assert.equal((await readProcStat(f.fs))?.btime, 99);
    assert.equal((await readLoadavg(f.fs))?.total, 500);
    const gone = await createCgroupSampler({ reader: createCgroupStatsReader(f.fs, l.layout), fs: f.fs, clock: new FakeClock() })({ key: 'x', cgroup: '/kubepods/gone' });
    assert.equal(gone, undefined);
  } finally {
    f.cleanup();
  }
});
