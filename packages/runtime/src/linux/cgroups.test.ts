import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cgroups } from './cgroups.ts';

const V1 = ['cpu', 'cpuacct', 'memory', 'pids'];

/** A fake cgroupfs: plain directories named in a synthetic mountinfo (files are written by hand). */
function fake(version: 'v1' | 'v2'): { root: string; cg: Cgroups; file(ctl: string, path: string, name: string): string } {
  const root = mkdtempSync(join(tmpdir(), `cgfake-${version}-`));
  const line = (n: number, dir: string, type: string, opts: string) => `${n} 1 0:${n} / ${join(root, dir)} rw - ${type} ${type} rw,${opts}`;
  const mountinfo = version === 'v2' ? line(1, '', 'cgroup2', 'nsdelegate') : V1.map((c, i) => line(i + 2, c, 'cgroup', c)).join('\n');
  if (version === 'v1') for (const c of V1) mkdirSync(join(root, c));
  const cg = Cgroups.detect(mountinfo);
  assert.ok(cg, `${version} fake detected`);
  const file = (ctl: string, path: string, name: string) => (version === 'v2' ? join(root, path, name) : join(root, ctl, path, name));
  return { root, cg, file };
}

test('Cgroups over v1 and v2 layouts', () => {
  const cases = [
    {
      version: 'v1' as const,
      limits: [['memory', 'memory.limit_in_bytes', '1048576'], ['cpu', 'cpu.cfs_quota_us', '50000'], ['cpu', 'cpu.cfs_period_us', '100000'], ['cpu', 'cpu.shares', '512']],
      stats: [['memory', 'memory.usage_in_bytes', '5000'], ['memory', 'memory.stat', 'total_inactive_file 1000\ntotal_rss 3000\ntotal_pgfault 7\ntotal_pgmajfault 1\n'], ['cpuacct', 'cpuacct.usage', '123456']],
      oom: ['memory', 'memory.oom_control', 'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n'],
    },
    {
      version: 'v2' as const,
      limits: [['memory', 'memory.max', '1048576'], ['cpu', 'cpu.max', '50000 100000'], ['cpu', 'cpu.weight', '20']],
      stats: [['memory', 'memory.current', '5000'], ['memory', 'memory.stat', 'inactive_file 1000\nanon 3000\npgfault 7\npgmajfault 1\n'], ['cpu', 'cpu.stat', 'usage_usec 123\nuser_usec 100\n']],
      oom: ['memory', 'memory.events', 'low 0\nhigh 0\nmax 4\noom 2\noom_kill 2\n'],
    },
  ];
  for (const c of cases) {
    const { root, cg, file } = fake(c.version);
    try {
      const made = cg.create('/kubepods/pod1/ctr');
      assert.ok(made.ok);
      assert.ok(made.created.length >= 3, `${c.version}: parents are reported as created`);
      assert.deepEqual(cg.apply('/kubepods/pod1/ctr', { memoryLimitInBytes: 1048576, cpuQuota: 50000, cpuPeriod: 100000, cpuShares: 512 }), []);
      for (const [ctl, name, want] of c.limits) assert.equal(readFileSync(file(ctl!, '/kubepods/pod1/ctr', name!), 'utf8'), want, `${c.version} ${name}`);
      for (const [ctl, name, text] of c.stats) writeFileSync(file(ctl!, '/kubepods/pod1/ctr', name!), text!);
      assert.deepEqual(cg.sample('/kubepods/pod1/ctr'), {
        cpuUsageNs: c.version === 'v1' ? 123456 : 123000, memoryUsageBytes: 5000, workingSetBytes: 4000, rssBytes: 3000, pageFaults: 7, majorPageFaults: 1,
      }, c.version);
      assert.equal(cg.oomKills('/kubepods/pod1/ctr'), 0, `${c.version}: no oom file yet`);
      writeFileSync(file(c.oom[0]!, '/kubepods/pod1/ctr', c.oom[1]!), c.oom[2]!);
      assert.equal(cg.oomKills('/kubepods/pod1/ctr'), 2, c.version);
      assert.equal(cg.procsFiles('/x').length, c.version === 'v1' ? 4 : 1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
});
