/**
 * Test helpers for the file source: a pod manifest, and a FileSource over a fresh temporary directory on the
 * real file system whose watch events the test fires, with an injected FakeClock and recording callbacks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../util/clock.ts';
import { RecordingLogger } from '../../util/logger.ts';
import { FileSource } from '../file-source.ts';
import { nodeManifestFs, type ManifestFs } from '../manifest-fs.ts';
import type { PodUpdate, SourceError } from '../types.ts';

export const manifest = (name: string, image = 'nodelet.local/host:latest', namespace?: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
${namespace ? `  namespace: ${namespace}\n` : ''}spec:
  containers:
  - name: app
    image: ${image}
`;

/** Real fs, but watch events are fired by the test. */
export function controlledFs() {
  const watchers = new Set<() => void>();
  const fs: ManifestFs = {
    ...nodeManifestFs,
    watch(_path, onEvent) {
      watchers.add(onEvent);
      return { close: () => watchers.delete(onEvent) };
    },
  };
  return { fs, fire: () => [...watchers].forEach((w) => w()), watchers };
}

export async function setupManifestDir(t: { after(fn: () => Promise<void>): void }, nodeName = 'node1') {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  const clock = new FakeClock();
  const updates: PodUpdate[] = [];
  const errors: SourceError[] = [];
  const log = new RecordingLogger();
  const ctl = controlledFs();
  const src = new FileSource(
    { clock, fs: ctl.fs, logger: log.logger, onUpdate: (u) => updates.push(u), onError: (e) => errors.push(e) },
    { path: dir, nodeName },
  );
  t.after(async () => {
    await src.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const names = () => updates.at(-1)?.pods.map((p) => p.metadata?.name) ?? [];
  /** Fires a watch event and waits for the rescan. */
  const rescan = async () => {
    ctl.fire();
    await src.whenIdle();
  };
  return { dir, clock, updates, errors, log, ctl, src, names, rescan };
}
