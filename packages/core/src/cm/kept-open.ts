/**
 * Cgroup files kept open between housekeeping samples and read with pread at offset 0. A cgroupfs file is a seq_file:
 * a read at offset 0 builds its content afresh, so one read takes the place of open + read + close. At 110 pods those
 * three syscalls were two thirds of the housekeeping's CPU (12 files a cgroup on v1, each opened, read and closed).
 * A removed cgroup's kept file answers ENODEV: it is closed and the path opened afresh once (a pod's cgroup made again
 * at the same path). Files not read between two sweeps (a minute apart) are closed, and at most `max` are kept: the
 * rest are read as before.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

export const SWEEP_MS = 60_000;

export class KeptOpenFiles {
  private readonly fds = new Map<string, { fd: number; used: boolean }>();
  private lastSweep: number;
  private reads = 0;

  /** `checkEvery`: reads between two looks at the clock (a clock read per file allocated ≈ 40 B of heap numbers). */
  constructor(
    private readonly max: number,
    private readonly now: () => number = () => performance.now(),
    private readonly checkEvery = 1024,
  ) {
    this.lastSweep = now();
  }

  /** The file's bytes into buf from offset 0: its length, or buf.length when it may go on. */
  read(p: string, buf: Uint8Array): number {
    if (++this.reads >= this.checkEvery) {
      this.reads = 0;
      if (this.now() - this.lastSweep >= SWEEP_MS) this.sweep();
    }
    let e = this.fds.get(p);
    if (e) {
      try {
        e.used = true;
        return readSync(e.fd, buf, 0, buf.length, 0);
      } catch {
        this.drop(p, e.fd); // removed (ENODEV) or otherwise gone: opened afresh below
      }
    }
    const fd = openSync(p, 'r');
    let kept = false;
    try {
      const n = readSync(fd, buf, 0, buf.length, 0);
      if (this.fds.size < this.max) {
        this.fds.set(p, { fd, used: true });
        kept = true;
      }
      return n;
    } finally {
      if (!kept) closeSync(fd);
    }
  }

  /** Open files now (tests, diagnostics). */
  get size(): number {
    return this.fds.size;
  }

  /** Closes every file not read since the last sweep. */
  sweep(): void {
    this.lastSweep = this.now();
    for (const [p, e] of this.fds) {
      if (e.used) e.used = false;
      else this.drop(p, e.fd);
    }
  }

  close(): void {
    for (const [p, e] of this.fds) this.drop(p, e.fd);
  }

  private drop(p: string, fd: number): void {
    this.fds.delete(p);
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}

/** A quarter of the process's soft limit on open files (/proc/self/limits), at most 4096: sockets keep the rest. */
export function keptOpenLimit(limits = '/proc/self/limits'): number {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(limits, 'utf8'));
    const soft = !m?.[1] || m[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(m[1]);
    return Math.min(4096, Math.floor(soft / 4));
  } catch {
    return 0;
  }
}
