/** Builds the kubelet's pod sources: static pod manifests (file), a manifest URL (http), the API server. */
import type { MergedPodConfig } from '../config/pod-config.ts';
import { FileSource } from '../config/file-source.ts';
import { HttpSource } from '../config/http-source.ts';
import { sourceErrorEvents } from '../config/source-errors.ts';
import type { PodSource } from '../config/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

export function buildPodSources(
  deps: KubeletDeps,
  c: KubeletConfig,
  parts: { podConfig: MergedPodConfig; recorder: EventRecorder; apiSource?: PodSource },
): PodSource[] {
  const { clock, logger } = deps;
  const sources: PodSource[] = [];
  const onError = sourceErrorEvents(parts.recorder, c.nodeName);
  if (c.podManifestPath) {
    sources.push(
      new FileSource(
        { clock, logger, onUpdate: parts.podConfig.channel('file'), onError, ...(deps.manifestFs ? { fs: deps.manifestFs } : {}) },
        { path: c.podManifestPath, nodeName: c.nodeName, fileCheckFrequencyMs: c.fileCheckFrequencyMs },
      ),
    );
  }
  if (c.manifestUrl) {
    sources.push(
      new HttpSource(
        { clock, logger, onUpdate: parts.podConfig.channel('http'), onError, ...(deps.fetch ? { fetch: deps.fetch } : {}) },
        { url: c.manifestUrl, nodeName: c.nodeName, httpCheckFrequencyMs: c.httpCheckFrequencyMs, ...(c.manifestUrlHeaders ? { headers: c.manifestUrlHeaders } : {}) },
      ),
    );
  }
  if (parts.apiSource) sources.push(parts.apiSource);
  return sources;
}
