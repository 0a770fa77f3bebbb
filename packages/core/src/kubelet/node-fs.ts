/** The real file system for the kubelet's RuntimeFs seam (pod and container log directories). */
import { mkdir } from 'node:fs/promises';
import type { RuntimeFs } from '../kuberuntime/types.ts';

export const nodeRuntimeFs: RuntimeFs = {
  async mkdirp(path: string): Promise<void> {
    await mkdir(path, { recursive: true, mode: 0o755 });
  },
};
