/**
 * The memory-pressure eviction-order suite (testing/eviction-order-suite.ts) on containerd: a private containerd
 * from scripts/containerd-up.sh (root only; skipped with the reason when it cannot start), image
 * localhost/busybox:latest. BestEffort, then Burstable, then Guaranteed are evicted, one per pass; the static
 * pod stays. Sandboxes are removed through CRI before containerd stops (no shims left behind).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { testCgroupRoot } from './testing/api-node.ts';
import { removeCgroupTree } from './testing/cgroups.ts';
import { evictionOrderSuite } from './testing/eviction-order-suite.ts';
import { privateContainerd } from './testing/private-containerd.ts';

const root = mkdtempSync(join(tmpdir(), 'nodelet-evict-ctd-'));
const ctd = privateContainerd(join(root, 'containerd'));

// Registered first, so the suite's after hook (agent, API server) runs before containerd is drained and stopped.
evictionOrderSuite({ endpoint: () => ctd.endpoint, image: 'localhost/busybox:latest', nodeName: 'node-oc', skip: ctd.endpoint ? false : ctd.reason ?? 'no containerd' });

after(async () => {
  await ctd.down();
  if (ctd.endpoint) removeCgroupTree(testCgroupRoot('node-oc'));
  rmSync(root, { recursive: true, force: true });
});
