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

/** The root of every mounted hierarchy: /sys/fs/cgroup on v2, each controller's directory under it on v1 / hybrid. */
export function cgroupRoots(): string[] {
  if (!existsSync(V1_ROOT)) return [];
  if (existsSync(join(V1_ROOT, 'cgroup.controllers'))) return [V1_ROOT];
  return readdirSync(V1_ROOT).map((d) => join(V1_ROOT, d)).filter((d) => statSync(d).isDirectory());
}

/** Removes a cgroup subtree in every mounted hierarchy, deepest first (a test's own cgroup root); returns the
 * directories that could not be removed (busy: processes still in them). */
export function removeCgroupTree(name: string): string[] {
  if (!/^\/[^/]+/.test(name)) throw new Error(`refusing to remove cgroup tree ${name}`);
  const failed: string[] = [];
  for (const r of cgroupRoots()) removeDir(join(r, name), failed);
  return failed;
}

function removeDir(dir: string, failed: string[]): void {
  if (!existsSync(dir)) return;
  let subdirs: string[] = [];
  try {
    subdirs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return; // vanished
  }
  for (const d of subdirs) removeDir(join(dir, d), failed);
  try {
    rmdirSync(dir);
  } catch {
    if (existsSync(dir)) failed.push(dir);
  }
}
