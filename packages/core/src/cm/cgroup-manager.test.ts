import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createCgroupManager } from './cgroup-manager.ts';
import { detectCgroupLayout } from './mountinfo.ts';
import { makeFixture, type CgroupFixture } from './testing/cgroup-fixture.ts';
import type { CgroupManager } from './types.ts';

async function setup(kind: 'v1' | 'v2'): Promise<{ f: CgroupFixture; m: CgroupManager; file: (p: string) => string }> {
  const f = makeFixture(kind);
  const l = await detectCgroupLayout(f.fs);
  assert.ok(l.ok);
  const m = createCgroupManager(f.fs, l.layout);
  return { f, m, file: (p) => readFileSync(path.join(f.root, p), 'utf8') };
}

const POD = '/kubepods/burstable/pod1234';
const RES = { cpuShares: 1024, cpuQuota: 50000, cpuPeriod: 100000, memoryLimit: 64 * 2 ** 20, pidsLimit: 100 };

test('v1: create writes the control files in each controller hierarchy', async () => {
  const { f, m, file } = await setup('v1');
  try {
    assert.equal(m.driver, 'v1');
    assert.deepEqual(await m.create(POD, RES), { ok: true });
    const files: [string, string][] = [
      ['/sys/fs/cgroup/cpu/kubepods/burstable/pod1234/cpu.shares', '1024'],
      ['/sys/fs/cgroup/cpu/kubepods/burstable/pod1234/cpu.cfs_quota_us', '50000'],
      ['/sys/fs/cgroup/cpu/kubepods/burstable/pod1234/cpu.cfs_period_us', '100000'],
      ['/sys/fs/cgroup/memory/kubepods/burstable/pod1234/memory.limit_in_bytes', String(64 * 2 ** 20)],
      ['/sys/fs/cgroup/pids/kubepods/burstable/pod1234/pids.max', '100'],
      ['/sys/fs/cgroup/cpuset/kubepods/cpuset.cpus', '0-1'],
    ];
    for (const [p, v] of files) assert.equal(file(p), v, p);
    assert.ok(existsSync(path.join(f.root, '/sys/fs/cgroup/cpuacct/kubepods/burstable/pod1234')));
    assert.equal(await m.exists(POD), true);
    assert.deepEqual(await m.read(POD), RES);
    assert.deepEqual(await m.update(POD, { pidsLimit: -1, memoryLimit: -1 }), { ok: true });
    assert.equal(file('/sys/fs/cgroup/pids/kubepods/burstable/pod1234/pids.max'), 'max');
    assert.equal(file('/sys/fs/cgroup/memory/kubepods/burstable/pod1234/memory.limit_in_bytes'), '-1');
  } finally {
    f.cleanup();
  }
});

test('v2: create delegates controllers and writes weight, cpu.max, memory.max, pids.max', async () => {
  const { f, m, file } = await setup('v2');
  try {
    assert.equal(m.driver, 'v2');
    assert.deepEqual(await m.create(POD, RES), { ok: true });
    const dir = '/sys/fs/cgroup/kubepods/burstable/pod1234';
    assert.equal(file('/sys/fs/cgroup/cgroup.subtree_control'), '+cpuset +cpu +io +memory +hugetlb +pids');
    assert.equal(file(`${dir}/cpu.weight`), '39');
    assert.equal(file(`${dir}/cpu.max`), '50000 100000');
    assert.equal(file(`${dir}/memory.max`), String(64 * 2 ** 20));
    assert.equal(file(`${dir}/pids.max`), '100');
    assert.equal(await m.exists(POD), true);
    const back = await m.read(POD);
    assert.equal(back.cpuQuota, 50000);
    assert.equal(back.memoryLimit, 64 * 2 ** 20);
    await m.update(POD, { cpuQuota: -1, cpuPeriod: 100000, memoryLimit: -1 });
    assert.equal(file(`${dir}/cpu.max`), 'max 100000');
    assert.equal(file(`${dir}/memory.max`), 'max');
  } finally {
    f.cleanup();
  }
});

for (const kind of ['v1', 'v2'] as const) {
  test(`${kind}: pids walk descendants; children; destroy removes the subtree; absent is ok`, async () => {
    const { f, m } = await setup(kind);
    try {
      await m.create(POD);
      await m.create(`${POD}/ctr1`);
      const procs = kind === 'v1' ? '/sys/fs/cgroup/pids' : '/sys/fs/cgroup';
      f.write(`${procs}${POD}/cgroup.procs`, '10\n');
      f.write(`${procs}${POD}/ctr1/cgroup.procs`, '11\n12\n');
      assert.deepEqual((await m.pids(POD)).sort(), [10, 11, 12]);
      assert.deepEqual(await m.children('/kubepods/burstable'), [POD]);
      assert.deepEqual(await m.destroy(POD), { ok: true });
      assert.equal(await m.exists(POD), false);
      assert.equal(await m.exists('/kubepods/burstable'), true);
      assert.deepEqual(await m.destroy(POD), { ok: true });
      assert.equal((await m.destroy('/')).ok, false);
    } finally {
      f.cleanup();
    }
  });
}
