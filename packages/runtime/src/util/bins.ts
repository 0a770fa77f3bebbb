import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

const SEARCH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Whether `p` exists and is executable by this process. */
export function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Absolute path of a host executable, or undefined. */
export function findBinary(name: string): string | undefined {
  return SEARCH.map((dir) => join(dir, name)).find(isExecutable);
}

export interface HostBinaries {
  sh: string;
  unshare: string;
  nsenter: string;
  /** catatonit (pause mode) when installed. */
  catatonit?: string;
  /** busybox when installed: its mount starts faster than util-linux's. */
  busybox?: string;
  /** util-linux setpriv, to drop capabilities (without it containers keep every capability). */
  setpriv?: string;
  /** perl (Debian's perl-base, an essential package): loads a container's seccomp filter (runtime/seccomp/). */
  perl?: string;
}

/** The host tools the runtime needs; a missing required tool is a startup failure. */
export function hostBinaries(): { ok: true; bins: HostBinaries } | { ok: false; missing: string[] } {
  const sh = findBinary('sh');
  const unshare = findBinary('unshare');
  const nsenter = findBinary('nsenter');
  const missing = [!sh && 'sh', !unshare && 'unshare', !nsenter && 'nsenter'].filter((x): x is string => !!x);
  if (!sh || !unshare || !nsenter) return { ok: false, missing };
  const opt = (name: string) => {
    const p = findBinary(name);
    return p ? { [name]: p } : {};
  };
  return { ok: true, bins: { sh, unshare, nsenter, ...opt('catatonit'), ...opt('busybox'), ...opt('setpriv'), ...opt('perl') } };
}
