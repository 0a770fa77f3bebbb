import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import type { HostFs } from '../cm/types.ts';
import { FakeClock } from '../util/clock.ts';
import { RecordingLogger } from '../util/logger.ts';
import { CmWiring } from './cm-wiring.ts';
import { ORPHAN_GRACE_MS } from '../cm/qos-container-manager.ts';

const burstable = (uid: string): V1Pod => ({
  metadata: { uid, name: `p-${uid}`, namespace: 'default' },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu: '100m' }, limits: { cpu: '500m', memory: '64Mi' } } }] },
});

function wiring(fs: HostFs, pods: V1Pod[] = [], cgroupRoot?: string) {
  const log = new RecordingLogger();
  const clock = new FakeClock(0);
  const w = new CmWiring(
    { fs, clock, logger: log.logger, activePods: () => pods },
    { rootDir: '/', maxPods: 110, ...(cgroupRoot ? { cgroupRoot } : {}) },
  );
  return { w, log, clock };
}

for (const kind of ['v1', 'v2'] as const) {
  test(`cm wiring (${kind}): QoS tree, pod cgroup with limits, orphan removal`, async () => {
    const fx = makeFixture(kind);
    try {
      const pod = burstable('u1');
      const { w, clock } = wiring(fx.fs, [pod], '/test');
      await w.start();
      assert.equal(w.qosManaged, true);
      assert.equal(w.cgroupParent(pod), '/test/kubepods/burstable/podu1');
      await w.ensurePod(pod);
      const dir = kind === 'v1' ? join(fx.root, '/sys/fs/cgroup/cpu/test/kubepods/burstable/podu1') : join(fx.root, '/sys/fs/cgroup/test/kubepods/burstable/podu1');
      assert.ok(existsSync(dir), dir);
      const shares = kind === 'v1' ? readFileSync(join(dir, 'cpu.shares'), 'utf8').trim() : readFileSync(join(dir, 'cpu.max'), 'utf8').trim();
      assert.equal(shares, kind === 'v1' ? '102' : '50000 100000');
      await w.cleanup(['u1']);
      assert.ok(existsSync(dir), 'active pod kept');
      await w.cleanup([]);
      assert.ok(!existsSync(dir), 'the cgroup of a pod this kubelet ran goes as soon as the pod is gone');
      // Another agent's (or a stale) pod cgroup, in every hierarchy.
      const hierarchies = kind === 'v1' ? readdirSync(join(fx.root, '/sys/fs/cgroup')).map((c) => `/sys/fs/cgroup/${c}`) : ['/sys/fs/cgroup'];
      for (const h of hierarchies) mkdirSync(join(fx.root, h, 'test/kubepods/besteffort/podother'), { recursive: true });
      const stranger = join(fx.root, hierarchies[0] as string, 'test/kubepods/besteffort/podother');
      await w.cleanup([]);
      assert.ok(existsSync(stranger), 'an unknown orphan is kept for the grace period');
      await clock.step(ORPHAN_GRACE_MS);
      await w.cleanup([]);
      assert.ok(!existsSync(stranger), 'unknown orphan removed after the grace period');
      assert.equal(w.status().qosTree, true);
      assert.equal(w.status().driver, kind);
    } finally {
      fx.cleanup();
    }
  });
}

test('cm wiring degrades when cgroups are not writable: naming only, logged once', async () => {
  const fx = makeFixture('v1');
  try {
    const denied: HostFs = { ...fx.fs, mkdir: () => Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })) };
    const pod = burstable('u2');
    const { w, log } = wiring(denied, [pod]);
    await w.start();
    assert.equal(w.qosManaged, false);
    assert.equal(w.cgroupParent(pod), '/kubepods/burstable/podu2');
    await w.ensurePod(pod);
    await w.cleanup([]);
    assert.equal(log.records.filter((r) => r.level === 'warn').length, 1);
    assert.equal(w.status().qosTree, false);
    assert.ok(w.status().message);
  } finally {
    fx.cleanup();
  }
});
