/** Filesystem capacity, availability and inodes through statfs (nodefs, imagefs, a volume's mount). */
import type { HostFs } from '../cm/types.ts';
import type { FsSample } from './types.ts';

export type FsStatsResult = { ok: true; stats: FsSample } | { ok: false; reason: string; message: string };

export async function fsStats(fs: HostFs, path: string): Promise<FsStatsResult> {
  try {
    const s = await fs.statfs(path);
    return {
      ok: true,
      stats: {
        capacityBytes: s.blocks * s.bsize,
        availableBytes: s.bavail * s.bsize,
        usedBytes: (s.blocks - s.bfree) * s.bsize,
        inodes: s.files,
        inodesFree: s.ffree,
        inodesUsed: s.files - s.ffree,
      },
    };
  } catch (e) {
    return { ok: false, reason: 'FsStatsUnavailable', message: `statfs ${path}: ${(e as Error).message}` };
  }
}
