/**
 * The real HostFs over node:fs. `root` re-roots every absolute path (fixture trees in a temp dir);
 * `emulateCgroupfs` makes rmdir behave as on cgroupfs (control files vanish with the directory, child
 * directories make it fail) so fixture trees can stand in for /sys/fs/cgroup.
 */
import { closeSync, existsSync, mkdirSync, promises as fsp, openSync, readdirSync, readlinkSync, readSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { DirEntry, HostFs, StatFsResult } from './types.ts';
import { KeptOpenFiles, keptOpenLimit } from './kept-open.ts';

/**
 * Kernel pseudo-files (procfs, sysfs with cgroupfs) answer from memory and never wait on a disk, so they are read
 * synchronously: a promise read (open, fstat, read, close, each a thread-pool round trip) costs ~10× the CPU
 * (cgroup v1 memory.stat: 360 µs vs 28 µs), and housekeeping reads a dozen such files per container every 10 s.
 */
const PSEUDO_FS = /^\/(proc|sys)\//;
/** Cgroupfs files, kept open between reads (kept-open.ts); /proc/<pid> files are not: a pid is reused. */
const CGROUPFS = /^\/sys\/fs\/cgroup\//;

const chunk = Buffer.allocUnsafe(64 * 1024);

/**
 * One pseudo-file, read as open + read + close: a short read of a procfs/sysfs/cgroupfs file is its end (seq_file
 * fills the buffer until the content ends). readFileSync also fstat()s and, the size being reported as 0, reads
 * again until 0 bytes come: 84 µs of CPU per cgroup file on this machine against 20 µs here.
 */
export function readPseudoSync(p: string): string {
  return withOpen(p, (fd) => {
    let n = readSync(fd, chunk, 0, chunk.length, -1);
    if (n < chunk.length) return chunk.toString('utf8', 0, n);
    const parts = [Buffer.from(chunk.subarray(0, n))];
    while ((n = readSync(fd, chunk, 0, chunk.length, -1)) > 0) parts.push(Buffer.from(chunk.subarray(0, n)));
    return Buffer.concat(parts).toString('utf8');
  });
}

/**
 * One pseudo-file into `buf` as open + read + close, as readPseudoSync: a short read is the end. Its length, or
 * buf.length when it may go on (the caller reads it again into a larger buffer).
 */
export function readPseudoIntoSync(p: string, buf: Uint8Array): number {
  return withOpen(p, (fd) => readSync(fd, buf, 0, buf.length, -1));
}

function withOpen<T>(p: string, read: (fd: number) => T): T {
  const fd = openSync(p, 'r');
  try {
    return read(fd);
  } finally {
    closeSync(fd);
  }
}

function pseudo<T>(p: string, read: () => T, slow: () => Promise<T>): Promise<T> {
  if (!PSEUDO_FS.test(p)) return slow();
  try {
    return Promise.resolve(read());
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * mkdir -p on a pseudo file system. Not mkdirSync's `recursive`: where a directory refuses children (procfs) it
 * retries for ever (ENOENT, parent EEXIST, ENOENT...); here each missing parent is made once, then the child.
 */
function mkdirPseudoSync(p: string, depth = 0): void {
  try {
    mkdirSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = path.dirname(p);
    if (code !== 'ENOENT' || parent === p || depth > 64) throw err;
    mkdirPseudoSync(parent, depth + 1);
    try {
      mkdirSync(p);
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
}

export interface NodeHostFsOptions {
  root?: string;
  emulateCgroupfs?: boolean;
}

/**
 * path.normalize(p), without the copy when `p` is already normal (no empty or dot segment): path.normalize copies
 * every path it is given, and ≈ 10 % of the bytes the agent allocated at 110 pods were the housekeeping reads' cgroup
 * paths, all of them normal already.
 */
export function normalPath(p: string): string {
  return p === '' || p.startsWith('.') || p.includes('//') || p.includes('/.') ? path.normalize(p) : p;
}

export function createNodeHostFs(opts: NodeHostFsOptions = {}): HostFs {
  const root = opts.root;
  const at = (p: string): string => (root ? path.join(root, p) : normalPath(p));
  /** The real cgroupfs only (a fixture root's files are regular files a test may replace). */
  let kept: KeptOpenFiles | undefined;
  return {
    readFile: (p) => {
      const full = at(p);
      return pseudo(full, () => readPseudoSync(full), () => fsp.readFile(full, 'utf8'));
    },
    async readdir(p): Promise<DirEntry[]> {
      const full = at(p);
      const ents = await pseudo(full, () => readdirSync(full, { withFileTypes: true }), () => fsp.readdir(full, { withFileTypes: true }));
      return ents.map((e) => ({ name: e.name, dir: e.isDirectory() }));
    },
    // A pod's cgroup is made (a directory per v1 hierarchy, then its limits and the QoS cgroups' shares written) before
    // its sandbox can start: ≈ 20 calls in a row, each a thread-pool round trip queued behind whatever else the pool
    // does; on cgroupfs (and procfs) they are in-memory kernel work, made synchronously.
    async mkdir(p) {
      const full = at(p);
      await pseudo(full, () => mkdirPseudoSync(full), () => fsp.mkdir(full, { recursive: true }).then(() => undefined));
    },
    writeFile: (p, data) => {
      const full = at(p);
      return pseudo(full, () => writeFileSync(full, data), () => fsp.writeFile(full, data));
    },
    async rmdir(p) {
      if (opts.emulateCgroupfs) {
        const ents = await fsp.readdir(at(p), { withFileTypes: true });
        if (ents.some((e) => e.isDirectory())) {
          throw Object.assign(new Error(`rmdir ${p}: device or resource busy`), { code: 'EBUSY' });
        }
        await Promise.all(ents.map((e) => fsp.unlink(path.join(at(p), e.name))));
      }
      await fsp.rmdir(at(p));
    },
    async statfs(p): Promise<StatFsResult> {
      const s = await fsp.statfs(at(p));
      return { bsize: s.bsize, blocks: s.blocks, bfree: s.bfree, bavail: s.bavail, files: s.files, ffree: s.ffree };
    },
    // Only the stats readers call it, for /proc and /sys paths (a fixture root stands in for them in tests).
    readPseudoInto: (p, buf) => {
      const full = at(p);
      if (!CGROUPFS.test(full) || root) return readPseudoIntoSync(full, buf);
      kept ??= new KeptOpenFiles(keptOpenLimit());
      return kept.read(full, buf);
    },
    readlink: (p) => {
      const full = at(p);
      return pseudo(full, () => readlinkSync(full), () => fsp.readlink(full));
    },
    exists: (p) => {
      const full = at(p);
      // A cgroup's existence is asked on every pod sync (as the kubelet's pcm.Exists): synchronously on procfs/sysfs.
      return pseudo(full, () => existsSync(full), () => fsp.access(full).then(() => true, () => false));
    },
  };
}
