/**
 * Resolves a container path against a root file system the way the container will see it: every symlink is
 * followed inside `root` (an absolute target starts again at `root`, `..` never climbs above it), so the
 * result names the real location under `root`. Mount points are created from this result; following the
 * symlinks on the host instead (e.g. an image's /var/run -> /run) would create them outside the container.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

const MAX_LINKS = 40; // Linux's own limit on symlinks followed in one lookup

/** The symlink-free path inside the container (absolute, starting with "/"), or an error past 40 links. */
export function resolveInRoot(root: string, path: string): { ok: true; path: string } | { ok: false; reason: string } {
  const done: string[] = [];
  let todo = split(path);
  let links = 0;
  while (todo.length > 0) {
    const part = todo.shift()!;
    if (part === '..') {
      done.pop();
      continue;
    }
    const here = join(root, ...done, part);
    let target: string | undefined;
    try {
      if (lstatSync(here).isSymbolicLink()) target = readlinkSync(here);
    } catch {
      // missing: the rest is created as it is named (nothing below a missing entry can be a link)
      done.push(part);
      for (const p of todo) if (p === '..') done.pop(); else done.push(p);
      break;
    }
    if (target === undefined) {
      done.push(part);
      continue;
    }
    if (++links > MAX_LINKS) return { ok: false, reason: `too many levels of symbolic links in ${path}` };
    if (target.startsWith('/')) done.length = 0;
    todo = [...split(target), ...todo];
  }
  return { ok: true, path: '/' + done.join('/') };
}

function split(p: string): string[] {
  return p.split('/').filter((x) => x !== '' && x !== '.');
}
