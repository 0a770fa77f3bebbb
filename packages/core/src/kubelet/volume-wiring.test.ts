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

test('volume wiring: only with a host fs; housekeeping removes the dirs of pods whose content the pod workers let go, unless running', async () => {
  const root = await mkdtemp(join(tmpdir(), 'volwiring-'));
  try {
    const clock = new FakeClock();
    const deps = { clock, logger: nullLogger, hostFs: {} } as unknown as KubeletDeps;
    const config = { rootDir: root, housekeepingPeriodMs: 2_000 } as KubeletConfig;
    let ready = false;
    // The pod workers' word (not the pod manager's): 'known' is syncing or terminating, every other pod's content
    // may go (terminated and deleted, evicted, or unknown to them).
    const asked: string[] = [];
    const podState = { shouldPodContentBeRemoved: (uid: string) => (asked.push(uid), uid !== 'known') };
    const parts = { sink: () => {}, podState: () => podState, runningUids: async () => new Set(['running']), mounter: new FakeMounter(), sourcesReady: () => ready };
    assert.equal(buildVolumeWiring({ ...deps, hostFs: undefined } as KubeletDeps, config, parts), undefined);
    const w = buildVolumeWiring(deps, config, parts)!;
    for (const uid of ['known', 'running', 'gone']) await mkdir(join(root, 'pods', uid, 'volumes'), { recursive: true });
    w.start();
    await w.housekeeping();
    assert.deepEqual((await readdir(join(root, 'pods'))).sort(), ['gone', 'known', 'running'], 'nothing removed before the sources are ready');
    ready = true;
    await w.housekeeping();
    assert.deepEqual((await readdir(join(root, 'pods'))).sort(), ['known', 'running']);
    assert.deepEqual(asked.sort(), ['gone', 'known'], 'the pod workers are asked about every pod dir with nothing running');
    await mkdir(join(root, 'pods', 'gone2'));
    await clock.step(2_000);
    await w.housekeeping();
    assert.deepEqual((await readdir(join(root, 'pods'))).sort(), ['known', 'running']);
    await w.stop();
    assert.equal(clock.pending(), 0, 'timers cancelled');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
