import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { createNodeDiskUsage } from '../stats/disk-usage.ts';
import { StatsProvider } from '../stats/stats-provider.ts';
import type { ContainerSample, TrackedContainer } from '../stats/types.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { CadvisorRenderer, renderCadvisorMetrics } from './cadvisor-renderer.ts';
import { CadvisorPageCache } from './cadvisor-page.ts';

const A = '/kubepods/besteffort/poda/ca';
const B = '/kubepods/besteffort/podb/cb';
const target = (key: string, pod: string): TrackedContainer => ({ key, cgroup: key, labels: { name: key.slice(-2), image: 'img', pod, namespace: 'ns', container: 'app' } });
const rss = (page: string, id: string) => new RegExp(`^container_memory_rss\\{id="${id}",[^}]*\\} (\\d+)$`, 'm').exec(page)?.[1];

/** A provider whose sampler hands out a new sample object (rss = n) per call, and a page cache counting renders. */
function setup() {
  const f = makeFixture('v1');
  const clock = new FakeClock();
  let n = 0;
  const sampler = async (): Promise<ContainerSample> => ({ time: clock.now(), memory: { usageBytes: 0, workingSetBytes: 0, rssBytes: ++n, cacheBytes: 0, mappedFileBytes: 0, swapBytes: 0, maxUsageBytes: 0, failcnt: 0, oomEvents: 0, oomKills: 0, pageFaults: 0, majorPageFaults: 0, limitBytes: 0 } });
  const summary = { nodeName: () => 'n', nodeStartTime: () => 0, nodeFsPath: () => '/', imageFsPath: () => '/', pods: () => [] };
  const sp = new StatsProvider({ fs: f.fs, clock, logger: nullLogger, layout: { mode: 'v1', v1: {}, driver: 'v1' }, du: createNodeDiskUsage(f.root), summary, sampler });
  const calls = { render: 0 };
  const renderer = new CadvisorRenderer();
  const cache = new CadvisorPageCache({ generation: () => sp.generation(), render: () => (calls.render++, renderer.renderPage(sp.cadvisorSource())) });
  const page = async () => (await cache.body({ gzip: false })).body;
  return { f, sp, cache, calls, page };
}

test('a new sample, a container added, relabelled or removed yields a new page; unchanged data serves the same bytes unrendered', async () => {
  const { f, sp, calls, page } = setup();
  try {
    sp.syncTracked([target(A, 'a')]);
    await sp.housekeeper.sampleNow(A);
    const first = await page();
    assert.equal(rss(first.toString(), A), '1');
    assert.equal(await page(), first, 'same generation: the same bytes');
    sp.syncTracked([target(A, 'a')]); // the periodic re-sync with equal targets changes nothing
    assert.equal(await page(), first);
    assert.equal(calls.render, 1, 'rendered once for one generation');

    await sp.housekeeper.sampleNow(A);
    const second = (await page()).toString();
    assert.equal(rss(second, A), '2', 'a new sample shows on the next scrape');
    assert.equal(calls.render, 2);

    sp.syncTracked([target(A, 'a'), target(B, 'b')]);
    await sp.housekeeper.sampleNow(B);
    const added = (await page()).toString();
    assert.equal(rss(added, B), '3', 'an added container shows');
    sp.syncTracked([target(A, 'renamed'), target(B, 'b')]);
    assert.match((await page()).toString(), /container_memory_rss\{id="\/kubepods\/besteffort\/poda\/ca",name="ca",image="img",pod="renamed",/, 'new labels show');
    sp.syncTracked([target(B, 'b')]);
    const removed = (await page()).toString();
    assert.equal(rss(removed, A), undefined, 'a removed container leaves no series');
    assert.equal(rss(removed, B), '3');
    const before = calls.render;
    sp.dataChanged();
    const again = await page();
    assert.equal(await page(), again);
    assert.equal(calls.render, before + 1, 'dataChanged() renders again, once');
    assert.equal((await page()).toString(), renderCadvisorMetrics(sp.cadvisorSource()), 'byte for byte the renderer\'s text');
  } finally {
    f.cleanup();
  }
});

test('concurrent scrapes share one render and one gzip; the gzipped bytes are the page', async () => {
  let renders = 0;
  let gzips = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const cache = new CadvisorPageCache({
    generation: () => 7,
    render: () => (renders++, { bytes: Buffer.from('# HELP x y\n# TYPE x gauge\nx 1\n') }),
    gzip: async (b) => {
      gzips++;
      await gate;
      return Buffer.concat([Buffer.from('gz:'), b]);
    },
  });
  const scrapes = [cache.body({ gzip: true }), cache.body({ gzip: true }), cache.body({ gzip: false })];
  release();
  const [a, b, plain] = await Promise.all(scrapes);
  assert.equal(renders, 1);
  assert.equal(gzips, 1);
  assert.equal(a?.body, b?.body);
  assert.equal(a?.contentEncoding, 'gzip');
  assert.equal(plain?.contentEncoding, undefined);
  assert.equal(plain?.body.toString(), '# HELP x y\n# TYPE x gauge\nx 1\n');
  const real = new CadvisorPageCache({ generation: () => 1, render: () => ({ bytes: Buffer.from('x 1\n') }) });
  assert.equal(gunzipSync((await real.body({ gzip: true })).body).toString(), 'x 1\n');
});
