import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { ContainerManager } from './container-manager.ts';
import { detectCgroupLayout } from './mountinfo.ts';
import { createNodeHostFs } from './node-host-fs.ts';
import { makeFixture } from './testing/cgroup-fixture.ts';
import type { HostFs } from './types.ts';

const GiB = 2 ** 30;
const capacity = () => ({ cpuMilli: 2000, memoryBytes: 8 * GiB, ephemeralStorageBytes: 100 * GiB, pods: 110 });
const pod = (uid: string, limits?: Record<string, string>): V1Pod => ({ metadata: { uid, name: uid, namespace: 'd' }, spec: { containers: [{ name: 'c', resources: { limits } }] } });

function cm(fs: HostFs, pods: V1Pod[], cgroupRoot?: string) {
  return new ContainerManager(
    { fs, clock: new FakeClock(), logger: nullLogger, activePods: () => pods, capacity },
    { cgroupRoot, kubeReserved: { cpu: '500m', memory: '1Gi' }, evictionHard: { 'memory.available': '100Mi' }, orphanGraceMs: 0 },
  );
}

test('fixture v2: start limits kubepods to capacity − reserved; allocatable also subtracts eviction', async () => {
  const f = makeFixture('v2');
  try {
    const m = cm(f.fs, [pod('g', { cpu: '1', memory: '1Gi' })]);
    assert.equal(m.podCgroupName(pod('g', { cpu: '1', memory: '1Gi' })), '/kubepods/podg');
    assert.equal((await m.ensurePodCgroup(pod('x'))).ok, false);
    assert.deepEqual(await m.start(), { ok: true });
    assert.equal(m.layout?.driver, 'v2');
    assert.equal((await m.cgroups?.read('/kubepods'))?.memoryLimit, 7 * GiB);
    const a = m.nodeAllocatable();
    assert.ok(a.ok);
    assert.equal(a.allocatable.memoryBytes, 7 * GiB - 100 * 2 ** 20);
    assert.equal(a.allocatable.cpuMilli, 1500);
    m.stop();
  } finally {
    f.cleanup();
  }
});

const skip = process.getuid?.() !== 0 ? 'needs root' : false;
test('this host: the whole tree under a throwaway cgroupRoot, a pod cgroup, orphan cleanup', { skip }, async () => {
  const fs = createNodeHostFs();
  const l = await detectCgroupLayout(fs);
  assert.ok(l.ok);
  const root = `/nodelet-test-${randomBytes(4).toString('hex')}`;
  const pods = [pod('keep', { cpu: '250m', memory: '64Mi' }), pod('orphan')];
  const m = cm(fs, pods, root);
  try {
    assert.deepEqual(await m.start(), { ok: true });
    for (const p of pods) assert.deepEqual(await m.ensurePodCgroup(p), { ok: true });
    assert.equal(m.podCgroupName(pods[0] as V1Pod), `${root}/kubepods/podkeep`);
    assert.equal((await m.cgroups?.read(`${root}/kubepods/podkeep`))?.memoryLimit, 64 * 2 ** 20);
    const r = await m.cleanupOrphanedPodCgroups(['keep']);
    assert.deepEqual(r, { removed: ['orphan'], busy: [], failed: [] });
    assert.equal(await m.cgroups?.exists(`${root}/kubepods/besteffort/podorphan`), false);
  } finally {
    m.stop();
    assert.deepEqual(await m.cgroups?.destroy(root), { ok: true });
  }
  const mem = l.layout.driver === 'v1' ? l.layout.v1.memory : l.layout.unified;
  assert.ok(!existsSync(`${mem}${root}`));
});
