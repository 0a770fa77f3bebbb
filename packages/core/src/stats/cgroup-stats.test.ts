import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectCgroupLayout } from '../cm/mountinfo.ts';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeFixture, V1_HYBRID_MOUNTINFO } from '../cm/testing/cgroup-fixture.ts';
import { FakeClock } from '../util/clock.ts';
import { createCgroupStatsReader } from './cgroup-stats.ts';
import { V2_NO_PER_CPU } from './cgroup-stats-v2.ts';
import { createCgroupSampler } from './sampler.ts';
import { StatFiles } from './stat-files.ts';
import type { HostFs } from '../cm/types.ts';
import type { CgroupStatsReader } from './types.ts';

const C = '/kubepods/burstable/pod1/cid1';

/** Each reader test runs on the real HostFs (files read into a buffer) and on one without readPseudoInto (as text). */
const MODES = ['bytes', 'text'] as const;
function as(mode: (typeof MODES)[number], fs: HostFs): HostFs {
  return mode === 'bytes' ? fs : { ...fs, readPseudoInto: undefined };
}

/** A cgroup's cpu, memory and processes as one sample reads them. */
function reading(fs: HostFs, r: CgroupStatsReader) {
  const files = new StatFiles(fs);
  return async (name: string) => files.run((f) => r.read(f, name, true));
}

for (const mode of MODES) test(`v1 readers (cpu and cpuacct on separate mounts) (${mode})`, async () => {
  const f = makeFixture('v1');
  try {
    const g = (ctl: string, file: string, text: string) => f.write(`/sys/fs/cgroup/${ctl}${C}/${file}`, text);
    g('cpuacct', 'cpuacct.usage', '5000000000\n');
    g('cpuacct', 'cpuacct.stat', 'user 300\nsystem 150\n');
    g('cpu', 'cpu.stat', 'nr_periods 40\nnr_throttled 3\nthrottled_time 250000000\n');
    g('memory', 'memory.usage_in_bytes', '104857600\n');
    g('memory', 'memory.stat', 'cache 1\nrss 2\ntotal_cache 41943040\ntotal_rss 52428800\ntotal_inactive_file 20971520\ntotal_mapped_file 4096\ntotal_pgfault 1000\ntotal_pgmajfault 7\n');
    g('memory', 'memory.failcnt', '12\n');
    g('memory', 'memory.max_usage_in_bytes', '209715200\n');
    g('memory', 'memory.limit_in_bytes', '9223372036854771712\n');
    g('memory', 'memory.oom_control', 'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n');
    g('pids', 'cgroup.procs', '100\n101\n');
    g('pids', 'tasks', '100\n101\n102\n');
    f.write(`/sys/fs/cgroup/pids${C}/sub/cgroup.procs`, '103\n');
    f.write(`/sys/fs/cgroup/pids${C}/sub/tasks`, '103\n');
    const l = await detectCgroupLayout(f.fs);
    assert.ok(l.ok);
    const fs = as(mode, f.fs);
    const r = createCgroupStatsReader(fs, l.layout);
    const read = reading(fs, r);
    assert.equal(r.driver, 'v1');
    assert.deepEqual((await read(C)).cpu, {
      usageNanoseconds: 5e9, userNanoseconds: 3e9, systemNanoseconds: 1.5e9, periods: 40, throttledPeriods: 3, throttledNanoseconds: 2.5e8,
      perCpuUnavailable: { reason: 'PerCpuUnavailable', message: 'cpuacct.usage_percpu missing or unreadable' },
    });
    assert.deepEqual((await read(C)).memory, {
      usageBytes: 104857600, workingSetBytes: 104857600 - 20971520, rssBytes: 52428800, cacheBytes: 41943040, mappedFileBytes: 4096,
      swapBytes: 0, maxUsageBytes: 209715200, failcnt: 12, oomEvents: 2, oomKills: 2, pageFaults: 1000, majorPageFaults: 7, limitBytes: -1,
    });
    // cAdvisor's processStatsFromProcs: the cgroup's own cgroup.procs (not sub's), threads from pids.current.
    g('pids', 'pids.current', '4\n');
    assert.deepEqual((await read(C)).processes, { processes: 2, threads: 4 });
    rmSync(join(f.root, `/sys/fs/cgroup/pids${C}/pids.current`));
    assert.deepEqual((await read(C)).processes, { processes: 2, threads: 3 }, 'without pids.current: the own tasks');
    assert.deepEqual(await r.pids(C), [100, 101, 103]);
    assert.deepEqual(await r.pids(C, 1), [100], 'a limit stops the walk');
    g('pids', 'cgroup.procs', '');
    assert.deepEqual(await r.pids(C, 1), [103], 'the first pid of a descendant when the cgroup itself holds none');
    g('pids', 'cgroup.procs', '100\n101\n');
    g('cpuacct', 'cpuacct.usage_percpu', '3000000000 2000000000 \n');
    assert.deepEqual((await read(C)).cpu?.perCpuNanoseconds, [3e9, 2e9], 'per core from cpuacct.usage_percpu');
    assert.equal((await read('/kubepods/absent')).cpu, undefined);
    assert.equal((await read('/kubepods/absent')).memory, undefined);
    assert.equal((await read('/kubepods/absent')).processes, undefined);
  } finally {
    f.cleanup();
  }
});

for (const mode of MODES) test(`v2 readers (${mode})`, async () => {
  const f = makeFixture('v2');
  try {
    const g = (file: string, text: string) => f.write(`/sys/fs/cgroup${C}/${file}`, text);
    g('cpu.stat', 'usage_usec 2000000\nuser_usec 1500000\nsystem_usec 500000\nnr_periods 10\nnr_throttled 1\nthrottled_usec 3000\n');
    g('memory.current', '50000000\n');
    g('memory.stat', 'anon 30000000\nfile 15000000\ninactive_file 10000000\nfile_mapped 100\npgfault 55\npgmajfault 5\n');
    g('memory.events', 'low 0\nhigh 0\nmax 4\noom 2\noom_kill 1\noom_group_kill 0\n');
    g('memory.max', 'max\n');
    g('memory.peak', '60000000\n');
    g('cgroup.procs', '7\n');
    g('cgroup.threads', '7\n8\n');
    g('pids.current', '3\n');
    const l = await detectCgroupLayout(f.fs);
    assert.ok(l.ok);
    const fs = as(mode, f.fs);
    const r = createCgroupStatsReader(fs, l.layout);
    const read = reading(fs, r);
    assert.equal(r.driver, 'v2');
    assert.deepEqual((await read(C)).cpu, {
      usageNanoseconds: 2e9, userNanoseconds: 1.5e9, systemNanoseconds: 5e8, periods: 10, throttledPeriods: 1, throttledNanoseconds: 3e6,
      perCpuUnavailable: V2_NO_PER_CPU,
    });
    assert.deepEqual((await read(C)).memory, {
      usageBytes: 5e7, workingSetBytes: 4e7, rssBytes: 3e7, cacheBytes: 1.5e7, mappedFileBytes: 100, swapBytes: 0, maxUsageBytes: 6e7,
      failcnt: 4, oomEvents: 2, oomKills: 1, pageFaults: 55, majorPageFaults: 5, limitBytes: -1,
    });
    assert.deepEqual((await read(C)).processes, { processes: 1, threads: 3 }, 'threads from pids.current (hierarchical), as cAdvisor');
  } finally {
    f.cleanup();
  }
});

test('missing or unreadable files leave that figure absent, never a throw', async () => {
  // Each case starts from a fully written v1 container and removes what a dying container or an unmounted
  // controller takes away.
  const cases: { name: string; drop: string[]; mountinfoWithout?: string; want: { cpu: boolean; memory: boolean; processes: boolean } }[] = [
    { name: 'complete', drop: [], want: { cpu: true, memory: true, processes: true } },
    { name: 'container just died (every dir gone)', drop: ['cpu', 'cpuacct', 'memory', 'pids'], want: { cpu: false, memory: false, processes: false } },
    { name: 'memory dir gone first', drop: ['memory'], want: { cpu: true, memory: false, processes: true } },
    { name: 'cpuacct gone', drop: ['cpuacct'], want: { cpu: false, memory: true, processes: true } },
    { name: 'memory controller not mounted', drop: [], mountinfoWithout: 'memory', want: { cpu: true, memory: false, processes: true } },
    { name: 'cpuacct controller not mounted', drop: [], mountinfoWithout: 'cpuacct', want: { cpu: false, memory: true, processes: true } },
    { name: 'pids not mounted: counts from cpu', drop: [], mountinfoWithout: 'pids', want: { cpu: true, memory: true, processes: true } },
  ];
  for (const c of cases) {
    const f = makeFixture('v1');
    try {
      const g = (ctl: string, file: string, text: string) => f.write(`/sys/fs/cgroup/${ctl}${C}/${file}`, text);
      g('cpuacct', 'cpuacct.usage', '5\n');
      g('cpu', 'cpu.stat', 'nr_periods 1\n');
      g('cpu', 'cgroup.procs', '9\n');
      g('cpu', 'tasks', '9\n');
      g('memory', 'memory.usage_in_bytes', '100\n');
      g('pids', 'cgroup.procs', '9\n');
      g('pids', 'tasks', '9\n');
      for (const ctl of c.drop) rmSync(join(f.root, `/sys/fs/cgroup/${ctl}${C}`), { recursive: true, force: true });
      if (c.mountinfoWithout) {
        const lines = V1_HYBRID_MOUNTINFO.split('\n').filter((l) => !l.endsWith(`rw,${c.mountinfoWithout}`));
        f.write('/proc/self/mountinfo', lines.join('\n'));
      }
      const l = await detectCgroupLayout(f.fs);
      assert.ok(l.ok, c.name);
      const r = createCgroupStatsReader(f.fs, l.layout);
      const stats = await reading(f.fs, r)(C);
      assert.deepEqual(await reading(as('text', f.fs), r)(C), stats, `${c.name}: read as text`);
      const got = { cpu: stats.cpu !== undefined, memory: stats.memory !== undefined, processes: stats.processes !== undefined };
      assert.deepEqual(got, c.want, c.name);
      const sample = await createCgroupSampler({ reader: r, fs: f.fs, clock: new FakeClock(0) })({ key: C, cgroup: C, labels: {} });
      const any = c.want.cpu || c.want.memory || c.want.processes;
      assert.equal(sample === undefined, !any, `${c.name}: sampler`);
      if (sample) assert.deepEqual({ cpu: 'cpu' in sample, memory: 'memory' in sample, processes: 'processes' in sample }, c.want, `${c.name}: sample`);
    } finally {
      f.cleanup();
    }
  }
});

for (const mode of MODES) test(`v2: a cgroup whose files vanished reads as absent (${mode})`, async () => {
  const f = makeFixture('v2');
  try {
    f.write(`/sys/fs/cgroup${C}/memory.current`, '10\n');
    const l = await detectCgroupLayout(f.fs);
    assert.ok(l.ok);
    const fs = as(mode, f.fs);
    const read = reading(fs, createCgroupStatsReader(fs, l.layout));
    assert.equal((await read(C)).cpu, undefined, 'no cpu.stat');
    f.write(`/sys/fs/cgroup${C}/cpu.stat`, 'usage_usec 1\n');
    assert.equal((await read(C)).cpu?.perCpuNanoseconds, undefined, 'v2 has no per-core usage');
    assert.equal((await read(C)).cpu?.perCpuUnavailable?.reason, 'PerCpuUnavailable', 'with a reason');
    assert.equal((await read(C)).memory?.usageBytes, 10);
    assert.equal((await read('/gone')).memory, undefined);
    assert.equal((await read('/gone')).processes, undefined);
  } finally {
    f.cleanup();
  }
});

// /proc/stat as captured on these machines (2 vCPU, kernel 6.18), trimmed after the cpu lines.
const PROC_STAT = `cpu  1020561 6239 350607 827645 6559 0 4639 51572 0 0
cpu0 506322 3024 173255 423953 1476 0 773 25229 0 0
cpu1 514238 3214 177352 403692 5083 0 3865 26343 0 0
intr 18966118 0 0 0
btime 1763779000
processes 40000
procs_running 2
`;

test('node per-core usage: v1 root cpuacct.usage_percpu; v2 root from /proc/stat cpuN busy ticks; v2 containers say why not', async () => {
  const cases: { name: string; driver: 'v1' | 'v2'; files: Record<string, string>; cgroup: string; want: number[] | undefined; reason?: string }[] = [
    {
      name: 'v1 node', driver: 'v1', cgroup: '/',
      files: { '/sys/fs/cgroup/cpuacct/cpuacct.usage': '9000\n', '/sys/fs/cgroup/cpuacct/cpuacct.usage_percpu': '4000 5000\n', '/proc/stat': PROC_STAT },
      want: [4000, 5000],
    },
    {
      name: 'v2 node', driver: 'v2', cgroup: '/',
      files: { '/sys/fs/cgroup/cpu.stat': 'usage_usec 10\nuser_usec 6\nsystem_usec 4\n', '/proc/stat': PROC_STAT },
      want: [(506322 + 3024 + 173255 + 773) * 1e7, (514238 + 3214 + 177352 + 3865) * 1e7],
    },
    { name: 'v2 node without /proc/stat', driver: 'v2', cgroup: '/', files: { '/sys/fs/cgroup/cpu.stat': 'usage_usec 10\n' }, want: undefined, reason: 'PerCpuUnavailable' },
    { name: 'v2 container', driver: 'v2', cgroup: C, files: { [`/sys/fs/cgroup${C}/cpu.stat`]: 'usage_usec 10\n', '/proc/stat': PROC_STAT }, want: undefined, reason: 'PerCpuUnavailable' },
  ];
  for (const c of cases) {
    const f = makeFixture(c.driver);
    try {
      for (const [p, t] of Object.entries(c.files)) f.write(p, t);
      const l = await detectCgroupLayout(f.fs);
      assert.ok(l.ok, c.name);
      const sampler = createCgroupSampler({ reader: createCgroupStatsReader(f.fs, l.layout), fs: f.fs, clock: new FakeClock(0) });
      const s = await sampler({ key: c.cgroup, cgroup: c.cgroup });
      assert.deepEqual(s?.cpu?.perCpuNanoseconds, c.want, c.name);
      assert.equal(s?.cpu?.perCpuUnavailable?.reason, c.reason, `${c.name}: reason`);
    } finally {
      f.cleanup();
    }
  }
});
