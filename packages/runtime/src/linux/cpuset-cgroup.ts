/**
 * CRI linux.resources cpuset_cpus / cpuset_mems on cgroup v1, where the cpuset hierarchy is its own mount and a
 * new cpuset cgroup starts with empty cpus and mems (no task may join it): each level of the container's path is
 * created with its parent's cpus and mems, then the container's own are written. Only containers given a cpuset
 * get one, so the others keep running wherever the OS schedules them, as before.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The v1 cpuset controller's mount point, from /proc/self/mountinfo. */
export function cpusetMountOf(mountinfo: string): string | undefined {
  for (const line of mountinfo.split('\n')) {
    const sep = line.indexOf(' - ');
    if (sep < 0) continue;
    const right = line.slice(sep + 3).split(' ');
    if (right[0] === 'cgroup' && (right[2] ?? '').split(',').includes('cpuset')) return line.slice(0, sep).split(' ')[4];
  }
  return undefined;
}

/** mkdir each level of `path` under the cpuset mount, copying the parent's cpus and mems into new (empty) ones. */
export function ensureCpusetDir(mount: string, path: string): string {
  let cur = mount;
  for (const part of path.split('/').filter(Boolean)) {
    const parent = cur;
    cur = join(cur, part);
    if (!existsSync(cur)) {
      try {
        mkdirSync(cur);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    for (const f of ['cpuset.cpus', 'cpuset.mems']) {
      if (read(join(cur, f)) === '') writeFileSync(join(cur, f), read(join(parent, f)));
    }
  }
  return cur;
}

/** Writes cpuset.cpus / cpuset.mems (those given) in `dir`; returns the files that could not be written. */
export function writeCpuset(dir: string, cpus: string | undefined, mems: string | undefined): string[] {
  const failed: string[] = [];
  for (const [file, value] of [['cpuset.cpus', cpus], ['cpuset.mems', mems]] as const) {
    if (!value) continue;
    try {
      writeFileSync(join(dir, file), value);
    } catch {
      failed.push(file);
    }
  }
  return failed;
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
