/** Picks the CgroupManager for a layout: v1 when cpu or memory are v1 controllers (hybrid included), else v2. */
import { CgroupManagerV1 } from './cgroup-manager-v1.ts';
import { CgroupManagerV2 } from './cgroup-manager-v2.ts';
import type { CgroupLayout, CgroupManager, HostFs } from './types.ts';

export function createCgroupManager(fs: HostFs, layout: CgroupLayout, config: { v1Controllers?: string[] } = {}): CgroupManager {
  return layout.driver === 'v1'
    ? new CgroupManagerV1({ fs, layout }, config.v1Controllers ? { controllers: config.v1Controllers } : {})
    : new CgroupManagerV2({ fs, layout });
}
