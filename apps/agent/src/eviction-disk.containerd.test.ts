/**
 * Image GC and disk-pressure eviction on a REAL small filesystem with containerd (root only): a private containerd
 * (testing/private-containerd.ts) whose `root` — content store, overlayfs snapshots, metadata — is a 96 MiB
 * tmpfs mounted before it starts; images come from its loopback registry. The agent finds that filesystem through
 * CRI ImageFsInfo (containerd names its snapshotter dir). containerd sizes an image by its compressed content,
 * not the unpacked snapshot, so GC frees more than it computes (as the kubelet on containerd does): no
 * exact-reclaim assertion here. The run itself: testing/disk-fill-suite.ts. Skipped with the reason when
 * containerd cannot start.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { diskFillSuite, mountTmpfs } from './testing/disk-fill-suite.ts';
import { privateContainerd, type PrivateContainerd } from './testing/private-containerd.ts';

const isRoot = process.getuid?.() === 0;
const hasContainerd = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v containerd'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
let ctd: PrivateContainerd | undefined;
let unmount: (() => void) | undefined;

diskFillSuite({
  runtime: 'containerd',
  node: 'node-dc',
  exactSizes: false,
  skip: !isRoot ? 'containerd needs root' : hasContainerd ? false : 'containerd is not installed',
  async setup(work) {
    const state = join(work, 'containerd');
    const root = join(state, 'root');
    unmount = mountTmpfs(root);
    ctd = privateContainerd(state);
    if (!ctd.endpoint || !ctd.registry) throw new Error(`private containerd did not start: ${ctd.reason ?? 'no registry'}`);
    return { imageFs: root, endpoint: ctd.endpoint, criEndpoint: ctd.endpoint, registryHost: ctd.registry, staticImage: 'localhost/busybox:latest' };
  },
  async teardown() {
    await ctd?.down();
    unmount?.();
  },
});
