import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeMounter } from '../volume/testing/fake-mounter.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';
import { buildVolumeWiring } from './volume-wiring.ts';

test('volume wiring: only with a host fs; housekeeping removes the dirs of pods whose runtime and content the pod workers let go, unless running', async () => {
  const root = await mkdtemp(join(tmpdir(), 'volwiring-'));
  try {
    const clock = new FakeClock();
    const deps = { clock, logger: nullLogger, hostFs: {} } as unknown as KubeletDeps;
    const config = { rootDir: root, housekeepingPeriodMs: 2_000 } as KubeletConfig;
    let ready = false;
    // The pod workers' word (not the pod manager's): 'known' is syncing, 'evicting' was evicted (content removable)
    // but its containers still stop; every other pod is terminated and deleted, or unknown to them.
    const asked: string[] = [];
    const podState = {
      shouldPodRuntimeBeRemoved: (uid: string) => uid !== 'known' && uid !== 'evicting',
      shouldPodContentBeRemoved: (uid: string) => (asked.push(uid), uid !== 'known'),
    };
    const parts = { sink: () => {}, podState: () => podState, runningUids: async () => new Set(['running']), mounter: new FakeMounter(), sourcesReady: () => ready };
    assert.equal(buildVolumeWiring({ ...deps, hostFs: undefined } as KubeletDeps, config, parts), undefined);
    const w = buildVolumeWiring(deps, config, parts)!;
    for (const uid of ['known', 'running', 'gone', 'evicting']) await mkdir(join(root, 'pods', uid, 'volumes'), { recursive: true });
    w.start();
    await w.housekeeping();
    assert.deepEqual((await readdir(join(root, 'pods'))).sort(), ['evicting', 'gone', 'known', 'running'], 'nothing removed before the sources are ready');
    ready = true;
    await w.housekeeping();
    assert.deepEqual((await readdir(join(root, 'pods'))).sort(), ['evicting', 'known', 'running'], 'an evicted pod keeps its dirs until terminated');
    assert.deepEqual(asked, ['gone'], 'content asked only of pods whose runtime may go');
    await mkdir(join(root, 'pods', 'gone2'));
    await clock.step(2_000);
    await w.housekeeping();
    assert.deepEqual((await readdir(join(root, 'pods'))).sort(), ['evicting', 'known', 'running']);
    await w.stop();
    assert.equal(clock.pending(), 0, 'timers cancelled');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
