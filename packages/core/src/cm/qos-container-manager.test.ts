import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { createCgroupManager } from './cgroup-manager.ts';
import { detectCgroupLayout } from './mountinfo.ts';
import { ORPHAN_GRACE_MS, QOSContainerManager, QOS_UPDATE_PERIOD_MS } from './qos-container-manager.ts';
import { makeFixture } from './testing/cgroup-fixture.ts';

const pod = (uid: string, requests?: Record<string, string>, limits?: Record<string, string>): V1Pod => ({
  metadata: { uid, name: uid, namespace: 'default' },
  spec: { containers: [{ name: 'c', resources: { requests, limits } }] },
});

async function setup(kind: 'v1' | 'v2', pods: V1Pod[]) {
  const f = makeFixture(kind);
  const l = await detectCgroupLayout(f.fs);
  assert.ok(l.ok);
  const clock = new FakeClock();
  const cgroups = createCgroupManager(f.fs, l.layout);
  const qm = new QOSContainerManager({ cgroups, clock, logger: nullLogger, activePods: () => pods }, { podsResources: { cpuShares: 2048, memoryLimit: 2 ** 30 } });
  const shares = (name: string) =>
    kind === 'v1' ? readFileSync(path.join(f.root, '/sys/fs/cgroup/cpu', name, 'cpu.shares'), 'utf8') : readFileSync(path.join(f.root, '/sys/fs/cgroup', name, 'cpu.weight'), 'utf8');
  return { f, clock, cgroups, qm, shares };
}

test('start builds the tree; burstable shares follow active burstable requests', async () => {
  const pods = [pod('a', { cpu: '250m' }), pod('b', { cpu: '250m' }), pod('g', undefined, { cpu: '1', memory: '1Gi' }), pod('e')];
  const { f, clock, qm, shares } = await setup('v1', pods);
  try {
    assert.deepEqual(await qm.start(), { ok: true });
    assert.equal(shares('/kubepods'), '2048');
    assert.equal(shares('/kubepods/burstable'), '512');
    assert.equal(shares('/kubepods/besteffort'), '2');
    pods.splice(0, 1);
    await clock.step(QOS_UPDATE_PERIOD_MS);
    await qm.idle();
    assert.equal(shares('/kubepods/burstable'), '256');
    qm.stop();
    assert.equal(clock.pending(), 0);
  } finally {
    f.cleanup();
  }
});

test('v2 tree uses cpu.weight', async () => {
  const { f, qm, shares } = await setup('v2', [pod('a', { cpu: '1' })]);
  try {
    await qm.start();
    assert.equal(shares('/kubepods/burstable'), '39');
    assert.equal(shares('/kubepods/besteffort'), '1');
    qm.stop();
  } finally {
    f.cleanup();
  }
});

test('ensurePodCgroup and cleanupOrphanedPodCgroups', async () => {
  const pods = [pod('keep', { cpu: '100m' }), pod('gone', undefined, { cpu: '1', memory: '1Gi' }), pod('busy')];
  const { f, qm, cgroups, clock } = await setup('v1', pods);
  try {
    await qm.start();
    for (const p of pods) assert.deepEqual(await qm.ensurePodCgroup(p), { ok: true });
    assert.equal(qm.podCgroupName(pods[1] as V1Pod), '/kubepods/podgone');
    assert.equal((await cgroups.read('/kubepods/podgone')).memoryLimit, 2 ** 30);
    f.write('/sys/fs/cgroup/pids/kubepods/besteffort/podbusy/cgroup.procs', '4242\n');
    // Freshly orphaned cgroups are left alone until they have stayed orphaned for the grace period.
    assert.deepEqual(await qm.cleanupOrphanedPodCgroups(['keep']), { removed: [], busy: [], failed: [] });
    await clock.step(ORPHAN_GRACE_MS - 1);
    assert.deepEqual(await qm.cleanupOrphanedPodCgroups(['keep']), { removed: [], busy: [], failed: [] });
    assert.equal(await cgroups.exists('/kubepods/podgone'), true);
    await clock.step(1);
    const r = await qm.cleanupOrphanedPodCgroups(['keep']);
    assert.deepEqual(r, { removed: ['gone'], busy: ['busy'], failed: [] });
    assert.equal(await cgroups.exists('/kubepods/podgone'), false);
    assert.equal(await cgroups.exists('/kubepods/burstable/podkeep'), true);
    qm.stop();
  } finally {
    f.cleanup();
  }
});

test('cgroupsPerQOS=false creates nothing and parents pods at the root', async () => {
  const f = makeFixture('v1');
  try {
    const l = await detectCgroupLayout(f.fs);
    assert.ok(l.ok);
    const cgroups = createCgroupManager(f.fs, l.layout);
    const qm = new QOSContainerManager({ cgroups, clock: new FakeClock(), logger: nullLogger, activePods: () => [] }, { cgroupsPerQOS: false });
    await qm.start();
    assert.equal(await cgroups.exists('/kubepods'), false);
    assert.equal(qm.podCgroupName(pod('x')), '/');
  } finally {
    f.cleanup();
  }
});
