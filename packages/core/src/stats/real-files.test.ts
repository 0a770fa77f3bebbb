import { test } from 'node:test';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { detectCgroupLayout } from '../cm/mountinfo.ts';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import type { HostFs } from '../cm/types.ts';
import { FakeClock } from '../util/clock.ts';
import { createCgroupStatsReader } from './cgroup-stats.ts';
import { createCgroupSampler } from './sampler.ts';

// The root cgroup's files and /proc/self/net/dev of this machine (cgroup v1, 2 vCPU, kernel 6.x), byte for byte
// (21:40 UTC 2026-11-26), put under a container's cgroup. The expected figures below are read off these texts.
const FILES: Record<string, string> = {
  'memory/memory.stat': 'cache 9854976\nrss 5611520\nrss_huge 0\nshmem 8998912\nmapped_file 7499776\ndirty 16384\nwriteback 0\nworkingset_refault_anon 0\nworkingset_refault_file 446\nswap 0\nswapcached 0\npgpgin 35892\npgpgout 32116\npgfault 36143\npgmajfault 0\ninactive_anon 0\nactive_anon 1531904\ninactive_file 4096\nactive_file 851968\nunevictable 13078528\nhierarchical_memory_limit 9223372036854771712\nhierarchical_memsw_limit 9223372036854771712\ntotal_cache 621633536\ntotal_rss 239501312\ntotal_rss_huge 0\ntotal_shmem 8998912\ntotal_mapped_file 68665344\ntotal_dirty 9134080\ntotal_writeback 0\ntotal_workingset_refault_anon 0\ntotal_workingset_refault_file 191707\ntotal_swap 0\ntotal_swapcached 0\ntotal_pgpgin 11329882\ntotal_pgpgout 11144996\ntotal_pgfault 15572241\ntotal_pgmajfault 1209\ntotal_inactive_anon 233738240\ntotal_active_anon 1589248\ntotal_inactive_file 283615232\ntotal_active_file 329019392\ntotal_unevictable 13078528\n',
  'memory/memory.usage_in_bytes': '860987392\n',
  'memory/memory.limit_in_bytes': '9223372036854771712\n',
  'memory/memory.max_usage_in_bytes': '3682353152\n',
  'memory/memory.failcnt': '0\n',
  'memory/memory.oom_control': 'oom_kill_disable 0\nunder_oom 0\noom_kill 0\n',
  'cpuacct/cpuacct.usage': '712054229023\n',
  'cpuacct/cpuacct.stat': 'user 59940\nsystem 11264\n',
  'cpuacct/cpuacct.usage_percpu': '299805896278 412248406035 \n',
  'cpu/cpu.stat': 'nr_periods 0\nnr_throttled 0\nthrottled_time 0\nnr_bursts 0\nburst_time 0\n',
  'pids/cgroup.procs': '4242\n77\n1\n',
  'pids/pids.current': '5\n',
  'pids/tasks': '1\n77\n4242\n4243\n4244\n',
};
const NET_DEV =
  'Inter-|   Receive                                                |  Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n    lo: 133389820   23872    0    1    0     0          0         0 133389820   23872    0    0    0     0       0          0\n  ifb0:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0\n  ifb1:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0\n  eth0: 422101754   10935    0    0    0     0          0         0   701067    6739    0    0    0     0       0          0\n';

const POD = '/kubepods/burstable/pod1';
const zeros = { rxErrors: 0, rxDropped: 0, txErrors: 0, txDropped: 0 };
const WANT = {
  cpu: {
    perCpuNanoseconds: [299805896278, 412248406035],
    usageNanoseconds: 712054229023, userNanoseconds: 59940 * 1e7, systemNanoseconds: 11264 * 1e7, periods: 0, throttledPeriods: 0, throttledNanoseconds: 0,
  },
  memory: {
    usageBytes: 860987392, workingSetBytes: 860987392 - 283615232, rssBytes: 239501312, cacheBytes: 621633536, mappedFileBytes: 68665344, swapBytes: 0,
    maxUsageBytes: 3682353152, failcnt: 0, oomEvents: 0, oomKills: 0, pageFaults: 15572241, majorPageFaults: 1209,
    limitBytes: -1, // 9223372036854771712: the kernel's unlimited, beyond 2^62
  },
  processes: { processes: 3, threads: 5 },
  network: [
    { name: 'ifb0', rxBytes: 0, rxPackets: 0, txBytes: 0, txPackets: 0, ...zeros },
    { name: 'ifb1', rxBytes: 0, rxPackets: 0, txBytes: 0, txPackets: 0, ...zeros },
    { name: 'eth0', rxBytes: 422101754, rxPackets: 10935, txBytes: 701067, txPackets: 6739, ...zeros },
  ],
};

async function fixture() {
  const f = makeFixture('v1');
  for (const [p, text] of Object.entries(FILES)) {
    const [ctl, file] = p.split('/') as [string, string];
    for (const c of ctl === 'pids' ? ['pids', 'cpu', 'memory'] : [ctl]) f.write(`/sys/fs/cgroup/${c}${POD}/${file}`, text);
  }
  f.write('/proc/4242/net/dev', NET_DEV);
  mkdirSync(join(f.root, '/proc/4242/ns'));
  symlinkSync('net:[4026531840]', join(f.root, '/proc/4242/ns/net'));
  const l = await detectCgroupLayout(f.fs);
  assert.ok(l.ok);
  return { f, layout: l.layout };
}

/** A HostFs that counts its calls. */
function counting(fs: HostFs) {
  const calls: Record<string, number> = {};
  const count = (k: string) => (calls[k] = (calls[k] ?? 0) + 1);
  const spy: HostFs = {
    ...fs,
    readFile: (p) => (count('readFile'), fs.readFile(p)),
    readdir: (p) => (count('readdir'), fs.readdir(p)),
    readlink: (p) => (count('readlink'), fs.readlink!(p)),
    ...(fs.readPseudoInto ? { readPseudoInto: (p: string, b: Uint8Array) => (count('readPseudoInto'), fs.readPseudoInto!(p, b)) } : { readPseudoInto: undefined }),
  };
  return { spy, calls };
}

test('a pod sample of real cgroup v1 files and net/dev: the figures in the files, read as bytes or as text', async () => {
  const { f, layout } = await fixture();
  try {
    for (const fs of [f.fs, { ...f.fs, readPseudoInto: undefined }]) {
      const sampler = createCgroupSampler({ reader: createCgroupStatsReader(fs, layout), fs, clock: new FakeClock(0) });
      const s = await sampler({ key: POD, cgroup: POD, network: true });
      assert.deepEqual(s, { time: 0, ...WANT }, fs.readPseudoInto ? 'bytes' : 'text');
    }
    f.write(`/sys/fs/cgroup/memory${POD}/memory.limit_in_bytes`, '536870912\n');
    const sampler = createCgroupSampler({ reader: createCgroupStatsReader(f.fs, layout), fs: f.fs, clock: new FakeClock(0) });
    assert.equal((await sampler({ key: POD, cgroup: POD }))?.memory?.limitBytes, 536870912, 'a set limit as it is');
  } finally {
    f.cleanup();
  }
});

test('where the HostFs reads pseudo-files into a buffer, a sample reads no file as a string', async () => {
  const { f, layout } = await fixture();
  try {
    const { spy, calls } = counting(f.fs);
    const sampler = createCgroupSampler({ reader: createCgroupStatsReader(spy, layout), fs: spy, clock: new FakeClock(0) });
    assert.deepEqual(await sampler({ key: POD, cgroup: POD, network: true }), { time: 0, ...WANT });
    // The first sample finds the pod's pid (cgroup.procs as text, the netns link); the next ones only check the link.
    for (const k of Object.keys(calls)) delete calls[k];
    assert.deepEqual(await sampler({ key: POD, cgroup: POD, network: true }), { time: 0, ...WANT });
    // usage, stat, cpu.stat, usage_percpu; usage, stat, oom_control, limit, max_usage, failcnt; procs, pids.current; net/dev
    assert.deepEqual(calls, { readPseudoInto: 13, readlink: 1 });
  } finally {
    f.cleanup();
  }
});
