/** A Mounter that records tmpfs mounts in memory (no syscalls). */
import type { Mounter } from '../types.ts';

export class FakeMounter implements Mounter {
  readonly mounted = new Map<string, number | undefined>();
  readonly calls: string[] = [];

  constructor(readonly canMount = true) {}

  async mountTmpfs(path: string, sizeBytes?: number): Promise<void> {
    this.calls.push(`mount ${path} ${sizeBytes ?? ''}`.trim());
    this.mounted.set(path, sizeBytes);
  }

  async unmount(path: string): Promise<void> {
    this.calls.push(`umount ${path}`);
    this.mounted.delete(path);
  }

  async mountPointsUnder(dir: string): Promise<string[]> {
    return [...this.mounted.keys()].filter((p) => p === dir || p.startsWith(`${dir}/`));
  }
}
