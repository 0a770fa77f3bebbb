import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectCgroupLayout, layoutFromMounts, parseMountInfo } from './mountinfo.ts';
import { V1_HYBRID_MOUNTINFO, V2_MOUNTINFO, makeFixture } from './testing/cgroup-fixture.ts';

const COMOUNTED = `25 20 0:22 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct
26 20 0:23 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory
`;

test('layoutFromMounts', () => {
  const cases: { name: string; text: string; mode: string; driver: string; cpu?: string; cpuacct?: string; unified?: string }[] = [
    { name: 'this machine: separate cpu and cpuacct, hybrid', text: V1_HYBRID_MOUNTINFO, mode: 'hybrid', driver: 'v1', cpu: '/sys/fs/cgroup/cpu', cpuacct: '/sys/fs/cgroup/cpuacct', unified: '/sys/fs/cgroup/unified' },
    { name: 'co-mounted cpu,cpuacct v1', text: COMOUNTED, mode: 'v1', driver: 'v1', cpu: '/sys/fs/cgroup/cpu,cpuacct', cpuacct: '/sys/fs/cgroup/cpu,cpuacct' },
    { name: 'pure v2', text: V2_MOUNTINFO, mode: 'v2', driver: 'v2', unified: '/sys/fs/cgroup' },
  ];
  for (const c of cases) {
    const l = layoutFromMounts(parseMountInfo(c.text));
    assert.equal(l.mode, c.mode, c.name);
    assert.equal(l.driver, c.driver, c.name);
    assert.equal(l.v1.cpu, c.cpu, c.name);
    assert.equal(l.v1.cpuacct, c.cpuacct, c.name);
    assert.equal(l.unified, c.unified, c.name);
  }
});

test('parseMountInfo unescapes mount points and keeps name= hierarchies', () => {
  const m = parseMountInfo('40 31 0:37 / /sys/fs/cgroup/with\\040space rw - cgroup cgroup rw,name=systemd\n');
  assert.equal(m[0]?.mountPoint, '/sys/fs/cgroup/with space');
  assert.equal(layoutFromMounts(m).v1['name=systemd'], '/sys/fs/cgroup/with space');
  assert.equal(layoutFromMounts(m).driver, 'v2');
});

test('detectCgroupLayout reads the unified controllers', async () => {
  for (const kind of ['v1', 'v2'] as const) {
    const f = makeFixture(kind);
    try {
      const r = await detectCgroupLayout(f.fs);
      assert.ok(r.ok);
      assert.deepEqual(r.layout.unifiedControllers, kind === 'v1' ? ['hugetlb'] : ['cpuset', 'cpu', 'io', 'memory', 'hugetlb', 'pids', 'rdma', 'misc']);
    } finally {
      f.cleanup();
    }
  }
});

test('detectCgroupLayout: unreadable mountinfo is a value', async () => {
  const f = makeFixture('v1');
  try {
    const r = await detectCgroupLayout(f.fs, '/proc/absent/mountinfo');
    assert.equal(r.ok, false);
  } finally {
    f.cleanup();
  }
});
