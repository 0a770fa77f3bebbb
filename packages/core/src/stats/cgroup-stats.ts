/** The cgroup statistics reader for a layout: v1 when cpu/memory are v1 controllers (hybrid too), else v2. */
import type { CgroupLayout, HostFs } from '../cm/types.ts';
import { CgroupStatsV1 } from './cgroup-stats-v1.ts';
import { CgroupStatsV2 } from './cgroup-stats-v2.ts';
import type { CgroupStatsReader } from './types.ts';

export function createCgroupStatsReader(fs: HostFs, layout: CgroupLayout): CgroupStatsReader {
  return layout.driver === 'v2' ? new CgroupStatsV2({ fs, layout }) : new CgroupStatsV1({ fs, layout });
}
