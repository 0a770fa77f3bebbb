/**
 * How the container's environment reaches its command (see linux/scripts.ts BUSYBOX_STEP_SCRIPT): the last step
 * inside the container's root is the image's env(1), else the host's static busybox. These helpers find both and
 * look up a command inside a container root, following symlinks there (never on the host).
 */
import { basename, dirname, join, posix } from 'node:path';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { BUSYBOX_STEP_SCRIPT } from '../linux/scripts.ts';
import { isStaticElf } from '../linux/static-elf.ts';
import { isExecutable } from '../util/bins.ts';
import { resolveInRoot } from '../util/resolve-in-root.ts';

/** Where an image may keep env(1), in the order tried. */
const ENV_PATHS = ['/usr/bin/env', '/bin/env'];

const staticBusyboxes = new Map<string, string | undefined>();

/** The real path of the host's busybox when it is statically linked (and so runs in any root), else undefined. */
export function staticBusybox(busybox: string | undefined): string | undefined {
  if (!busybox) return undefined;
  if (!staticBusyboxes.has(busybox)) {
    let real: string | undefined;
    try {
      real = realpathSync(busybox);
    } catch {
      real = undefined;
    }
    // busybox picks its applet from argv[0]: a name starting with "busybox" takes it from argv[1]
    staticBusyboxes.set(busybox, real && basename(real).startsWith('busybox') && isStaticElf(real) ? real : undefined);
  }
  return staticBusyboxes.get(busybox);
}

/** The last step through the static busybox `bbs` (fd 9 open on its directory), before the env words. */
export function busyboxStep(bbs: string): string[] {
  return [`/proc/self/fd/9/${basename(bbs)}`, 'sh', '-c', BUSYBOX_STEP_SCRIPT, 'env'];
}

export const busyboxDir = (bbs: string): string => dirname(bbs);

/**
 * The env(1) paths of an image, their directories resolved inside `root` (the host path of its root file
 * system) but the name kept (a multi-call binary such as busybox picks its applet from it), each with its
 * target resolved inside `root` for checks from the host.
 */
export function envPathsIn(root: string): Array<{ path: string; target: string }> {
  const out: Array<{ path: string; target: string }> = [];
  for (const p of ENV_PATHS) {
    const dir = resolveInRoot(root, posix.dirname(p));
    const target = resolveInRoot(root, p);
    if (!dir.ok || !target.ok) continue;
    const path = posix.join(dir.path, posix.basename(p));
    if (!out.some((o) => o.path === path)) out.push({ path, target: target.path });
  }
  return out;
}

/** The first of `paths` (container paths) that is an executable file inside `root`. */
export function firstExecutableIn(root: string, paths: string[]): string | undefined {
  return paths.find((p) => {
    const r = resolveInRoot(root, p);
    if (!r.ok) return false;
    const host = join(root, r.path);
    try {
      return statSync(host).isFile() && isExecutable(host);
    } catch {
      return false;
    }
  });
}

/**
 * The command `name` inside `root` as execvp would find it there: a name with a slash relative to `cwd`, else
 * the first executable file along `path` (the container's PATH). Returns the container path, or undefined.
 */
export function lookPathIn(root: string, cwd: string, name: string, path: string): string | undefined {
  if (name.includes('/')) return firstExecutableIn(root, [name.startsWith('/') ? name : posix.join(cwd, name)]) && name;
  return firstExecutableIn(root, path.split(':').filter(Boolean).map((d) => posix.join(d, name)));
}

/**
 * Whether the container's init `pid` has entered its root `rootfs` (the host path the root was assembled in):
 * before its `unshare --root`, its mount table still lists that path; afterwards the root is its "/". Until
 * then an exec (`nsenter -r -w` takes the target's root and cwd) would run in the host's file system. A pid that
 * is gone counts as entered (nothing to exec into).
 */
export function enteredRoot(pid: number, rootfs: string): boolean {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/mountinfo`, 'utf8');
  } catch {
    return true;
  }
  const escaped = rootfs.replace(/[ \t\n\\]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return !text.split('\n').some((line) => line.split(' ')[4] === escaped);
}

/** Polls enteredRoot for up to `ms` (a container start returns once its command is about to run in its root). */
export async function waitEnteredRoot(pid: number, rootfs: string, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!enteredRoot(pid, rootfs)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}
