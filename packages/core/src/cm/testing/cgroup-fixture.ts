/**
 * Fixture cgroup trees in a temp dir: a mountinfo like this machine's (v1 hybrid: cpu and cpuacct on
 * separate mounts + a cgroup2 "unified" mount) or a pure v2 host, and the mount point directories.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createNodeHostFs } from '../node-host-fs.ts';
import type { HostFs } from '../types.ts';

export const V1_HYBRID_MOUNTINFO = `22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/root rw
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 31 0:33 / /sys/fs/cgroup/devices rw,relatime - cgroup cgroup rw,devices
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`;

export const V2_MOUNTINFO = `22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/root rw
30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
`;

export interface CgroupFixture {
  root: string;
  fs: HostFs;
  /** Writes a file under the fixture root (host path). */
  write(p: string, data: string): void;
  cleanup(): void;
}

export function makeFixture(kind: 'v1' | 'v2'): CgroupFixture {
  const root = mkdtempSync(path.join(tmpdir(), `nodelet-cg-${kind}-`));
  const write = (p: string, data: string) => {
    mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    writeFileSync(path.join(root, p), data);
  };
  if (kind === 'v1') {
    write('/proc/self/mountinfo', V1_HYBRID_MOUNTINFO);
    for (const c of ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'blkio', 'pids', 'systemd']) {
      mkdirSync(path.join(root, '/sys/fs/cgroup', c), { recursive: true });
    }
    write('/sys/fs/cgroup/cpuset/cpuset.cpus', '0-1\n');
    write('/sys/fs/cgroup/cpuset/cpuset.mems', '0\n');
    write('/sys/fs/cgroup/unified/cgroup.controllers', 'hugetlb\n');
  } else {
    write('/proc/self/mountinfo', V2_MOUNTINFO);
    write('/sys/fs/cgroup/cgroup.controllers', 'cpuset cpu io memory hugetlb pids rdma misc\n');
    write('/sys/fs/cgroup/cgroup.subtree_control', '');
  }
  return {
    root,
    fs: createNodeHostFs({ root, emulateCgroupfs: true }),
    write,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
