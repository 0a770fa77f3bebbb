/**
 * Image GC and disk-pressure eviction on a REAL small filesystem with the embedded runtime (root only): a 96 MiB
 * tmpfs is the agent's root dir, so the runtime's image store, ImageFsInfo and statfs all see its real usage.
 * The runtime's image sizes are what removal frees, so image GC stops once usage is under the low threshold.
 * The run itself: testing/disk-fill-suite.ts. Not root: skipped with the reason, or a failure under CI=true.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import { startLoopbackRegistry, type LoopbackRegistry } from '@nodelet/runtime/testing';
import { HOST_IMAGE } from './testing/api-node.ts';
import { diskFillSuite, mountTmpfs } from './testing/disk-fill-suite.ts';

const isRoot = process.getuid?.() === 0;
const skipReason = isRoot ? false : 'needs root to mount a tmpfs as the agent root dir';
let unmount: (() => void) | undefined;
let registry: LoopbackRegistry | undefined;

if (!isRoot && process.env.CI === 'true') {
  it('disk-pressure integration test can run', () => assert.fail(`cannot run under CI: ${skipReason}`));
}

diskFillSuite({
  runtime: 'embedded',
  node: 'node-d',
  exactSizes: true,
  skip: skipReason,
  async setup(work) {
    const mnt = join(work, 'root');
    unmount = mountTmpfs(mnt);
    registry = await startLoopbackRegistry(join(work, 'registry'));
    return { imageFs: mnt, agentRoot: mnt, criEndpoint: `unix://${join(mnt, 'runtime', 'nodelet.sock')}`, registryHost: registry.host, staticImage: HOST_IMAGE };
  },
  async teardown() {
    await registry?.stop();
    unmount?.();
  },
});
