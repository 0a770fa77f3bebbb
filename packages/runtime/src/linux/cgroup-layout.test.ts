import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseCgroupPath, parseCgroupLayout, sharesToWeight } from './cgroup-layout.ts';

const hybrid = `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw`;
const combined = `32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory`;
const unified = `30 23 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate`;

test('parseCgroupLayout', () => {
  const cases: Array<[string, string, ReturnType<typeof parseCgroupLayout>]> = [
    ['v1 hybrid, separate cpu/cpuacct', hybrid, {
      version: 'v1',
      mounts: { cpu: '/sys/fs/cgroup/cpu', cpuacct: '/sys/fs/cgroup/cpuacct', memory: '/sys/fs/cgroup/memory', pids: '/sys/fs/cgroup/pids' },
    }],
    ['v1 combined cpu,cpuacct', combined, {
      version: 'v1',
      mounts: { cpu: '/sys/fs/cgroup/cpu,cpuacct', cpuacct: '/sys/fs/cgroup/cpu,cpuacct', memory: '/sys/fs/cgroup/memory' },
    }],
    ['v2 unified', unified, { version: 'v2', mount: '/sys/fs/cgroup' }],
    ['none', '1 2 0:1 / / rw - ext4 /dev/sda rw', undefined],
  ];
  for (const [name, input, want] of cases) assert.deepEqual(parseCgroupLayout(input), want, name);
});

test('normaliseCgroupPath', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, '/nodelet'], ['', '/nodelet'], ['/kubepods/burstable/pod1', '/kubepods/burstable/pod1'],
    ['kubepods/', '/kubepods'], ['//a//', '/a'],
  ];
  for (const [input, want] of cases) assert.equal(normaliseCgroupPath(input), want, String(input));
});

test('sharesToWeight', () => {
  const cases: Array<[number, number]> = [[0, 0], [2, 1], [1024, 39], [262144, 10000]];
  for (const [shares, want] of cases) assert.equal(sharesToWeight(shares), want, String(shares));
});
