/** Cgroup helpers for integration tests run as root: writable check, controller dirs, recursive removal. */
import { existsSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const V1_ROOT = '/sys/fs/cgroup';

/** Root with a writable v1 memory hierarchy (the machines the tests run on). */
export function canManageCgroups(): boolean {
  if (process.getuid?.() !== 0) return false;
  return existsSync(join(V1_ROOT, 'memory', 'memory.limit_in_bytes')) || existsSync(join(V1_ROOT, 'cgroup.controllers'));
}

/** The directory of a logical cgroup for a controller (v1) or the unified tree (v2). */
export function cgroupDir(controller: string, name: string): string {
  if (existsSync(join(V1_ROOT, 'cgroup.controllers'))) return join(V1_ROOT, name);
  return join(V1_ROOT, controller, name);
}

export function readCgroupFile(controller: string, name: string, file: string): string | undefined {
  try {
    return readFileSync(join(cgroupDir(controller, name), file), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Removes a cgroup subtree in every mounted hierarchy, deepest first (the test's own cgroup root). */
export function removeCgroupTree(name: string): void {
  if (!/^\/[^/]+/.test(name)) throw new Error(`refusing to remove cgroup tree ${name}`);
  const roots = existsSync(join(V1_ROOT, 'cgroup.controllers'))
    ? [V1_ROOT]
    : readdirSync(V1_ROOT).map((d) => join(V1_ROOT, d)).filter((d) => statSync(d).isDirectory());
  for (const r of roots) removeDir(join(r, name));
}

function removeDir(dir: string): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeDir(join(dir, e.name));
  try {
    rmdirSync(dir);
  } catch {
    /* busy: processes left; reported by the caller's assertions */
  }
}
