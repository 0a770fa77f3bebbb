/**
 * Containers' writable layers as the runtime measures them (CRI ContainerStats.writableLayer: the embedded
 * runtime walks each container's upper directory, containerd reports its snapshotter usage). One
 * ListContainerStats per refresh, run on the housekeeping interval by the FsUsageCache, never per scrape.
 */
import type { CriClient } from '../cri/types.ts';
import type { FsSample } from '../stats/types.ts';
import type { Logger } from '../util/logger.ts';
import type { ContainerStats__Output } from '../../../../proto/gen/runtime/v1/ContainerStats.ts';

export interface WritableLayer {
  usedBytes: number;
  inodesUsed: number;
  /** fsId.mountpoint as the runtime reported it (the upper dir, the snapshotter root). */
  mountpoint: string;
  /** Runtime's timestamp, ns (0 when absent). */
  timestampNs: number;
}

/** The writable layer of one CRI ContainerStats; undefined when the runtime reported none. */
export function writableLayerOf(s: ContainerStats__Output): WritableLayer | undefined {
  const w = s.writableLayer;
  if (!w || !w.usedBytes) return undefined;
  return { usedBytes: w.usedBytes.value, inodesUsed: w.inodesUsed?.value ?? 0, mountpoint: w.fsId?.mountpoint ?? '', timestampNs: Number(w.timestamp ?? 0) };
}

export class WritableLayerCache {
  private layers = new Map<string, WritableLayer>();
  private failing = false;

  constructor(private readonly deps: { cri: CriClient; logger: Logger }) {}

  get(containerId: string): WritableLayer | undefined {
    return this.layers.get(containerId);
  }

  /** Another object after each refresh that read the layers (a key for what was built from them). */
  version(): object {
    return this.layers;
  }

  async refresh(): Promise<void> {
    try {
      const r = await this.deps.cri.listContainerStats({});
      const next = new Map<string, WritableLayer>();
      for (const s of r.stats) {
        const w = writableLayerOf(s);
        const id = s.attributes?.id;
        if (w && id) next.set(id, w);
      }
      this.layers = next;
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.deps.logger.warn('ListContainerStats for writable layers failed', { err: (err as Error).message });
      this.failing = true;
    }
  }
}

/** container_fs_* rows of a container: its writable layer on the image filesystem (statfs cached per refresh). */
export function cadvisorFsRows(layer: WritableLayer | undefined, imageFs: { device: string; stats: FsSample } | undefined) {
  if (!layer || !imageFs) return undefined;
  const s = imageFs.stats;
  return [{ device: imageFs.device, usageBytes: layer.usedBytes, limitBytes: s.capacityBytes, inodesFree: s.inodesFree, inodes: s.inodes }];
}

/** The device of the filesystem holding `path`: the machine filesystem with the longest matching mount point. */
export function deviceOf(path: string, filesystems: { device: string; mountPoint: string }[]): string {
  const hit = filesystems
    .filter((f) => path === f.mountPoint || path.startsWith(f.mountPoint.endsWith('/') ? f.mountPoint : `${f.mountPoint}/`))
    .sort((a, b) => b.mountPoint.length - a.mountPoint.length)[0];
  return hit?.device ?? path;
}
