import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FsUsageCache } from './fs-usage-cache.ts';
import { usagePaths } from './stats-provider.ts';

function setup(sizes: Record<string, number>) {
  const walks: string[] = [];
  const clock = new FakeClock(0);
  let paths = Object.keys(sizes);
  const du = async (p: string) => {
    walks.push(p);
    const b = sizes[p];
    return b === undefined ? undefined : { bytes: b, inodes: 1 };
  };
  const cache = new FsUsageCache({ du, clock, logger: nullLogger, paths: () => paths }, 10_000);
  return { cache, walks, clock, sizes, setPaths: (p: string[]) => (paths = p) };
}

test('FsUsageCache: walks on the interval, scrapes answer from the cache, unlisted dirs are forgotten', async () => {
  const t = setup({ '/logs/a': 100, '/vol/x': 5 });
  const jobs: number[] = [];
  t.cache.addJob(async () => void jobs.push(t.clock.now()));
  t.cache.addJob(async () => {
    throw new Error('runtime down');
  });
  t.cache.start();
  await t.cache.refresh();
  assert.deepEqual(t.walks, ['/logs/a', '/vol/x']);
  assert.deepEqual(await t.cache.lookup('/logs/a'), { bytes: 100, inodes: 1 });
  t.sizes['/logs/a'] = 200;
  assert.deepEqual(await t.cache.lookup('/logs/a'), { bytes: 100, inodes: 1 }, 'no walk per scrape');
  assert.equal(t.walks.length, 2);
  t.setPaths(['/logs/a']);
  await t.clock.step(10_000);
  await t.cache.refresh();
  assert.equal(t.cache.get('/logs/a')?.bytes, 200);
  assert.equal(t.cache.get('/logs/a')?.time, 10_000);
  assert.equal(t.cache.get('/vol/x'), undefined, 'forgotten');
  assert.ok(jobs.length >= 2, 'jobs run on every refresh; a failing job does not stop them');
  t.cache.stop();
});

test('FsUsageCache: a dir asked for before its first walk is walked once; a missing one is not re-walked per lookup', async () => {
  const t = setup({});
  t.sizes['/new'] = 42;
  const [a, b] = await Promise.all([t.cache.lookup('/new'), t.cache.lookup('/new')]);
  assert.deepEqual(a, { bytes: 42, inodes: 1 });
  assert.deepEqual(b, a);
  assert.deepEqual(t.walks, ['/new'], 'concurrent first lookups share one walk');
  assert.equal(await t.cache.lookup('/gone'), undefined);
  assert.equal(await t.cache.lookup('/gone'), undefined);
  assert.equal(t.walks.filter((w) => w === '/gone').length, 1);
});

test('usagePaths: logs, rootfs dirs without a runtime figure, volumes', () => {
  assert.deepEqual(usagePaths([{
    ref: { name: 'p', namespace: 'n', uid: 'u' }, startTime: 0, cgroup: '/p',
    containers: [
      { name: 'a', cgroup: '/p/a', startTime: 0, logDir: '/l/a', rootfsPath: '/r/a' },
      { name: 'b', cgroup: '/p/b', startTime: 0, logDir: '/l/b', rootfsPath: '/r/b', writableLayer: { usedBytes: 1, inodesUsed: 1 } },
    ],
    volumes: [{ name: 'v', path: '/v' }],
  }]), ['/l/a', '/r/a', '/l/b', '/v']);
});
