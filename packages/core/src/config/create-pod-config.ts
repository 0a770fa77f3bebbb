/**
 * A MergedPodConfig plus the file and/or http sources the configuration asks for. Source errors are logged by
 * the sources (naming the file/URL) and recorded as Warning events (source-errors.ts).
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { EventBus } from '../events/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { FileSource } from './file-source.ts';
import { HttpSource, type FetchLike } from './http-source.ts';
import type { ManifestFs } from './manifest-fs.ts';
import { MergedPodConfig } from './pod-config.ts';
import { sourceErrorEvents } from './source-errors.ts';
import type { PodConfig, PodSource } from './types.ts';

export interface PodConfigSetupDeps {
  clock: Clock;
  logger?: Logger;
  bus?: EventBus;
  recorder?: EventRecorder;
  fs?: ManifestFs;
  fetch?: FetchLike;
}

export interface PodConfigSetupConfig {
  nodeName: string;
  /** staticPodPath / --pod-manifest-path (directory or file). */
  staticPodPath?: string;
  fileCheckFrequencyMs?: number;
  /** staticPodURL / --manifest-url. */
  staticPodURL?: string;
  staticPodURLHeader?: Record<string, string>;
  httpCheckFrequencyMs?: number;
}

export interface PodConfigSetup {
  podConfig: PodConfig;
  sources: PodSource[];
  /** Starts every source; resolves after each reported (or failed) its first scan/fetch. */
  start(signal?: AbortSignal): Promise<void>;
  stop(): Promise<void>;
}

export function createPodConfig(deps: PodConfigSetupDeps, config: PodConfigSetupConfig): PodConfigSetup {
  const logger = deps.logger?.child('config');
  const podConfig = new MergedPodConfig({ clock: deps.clock, logger, bus: deps.bus });
  const onError = sourceErrorEvents(deps.recorder, config.nodeName);
  const sources: PodSource[] = [];
  if (config.staticPodPath) {
    sources.push(
      new FileSource(
        { clock: deps.clock, logger, fs: deps.fs, onUpdate: podConfig.channel('file'), onError },
        { path: config.staticPodPath, nodeName: config.nodeName, fileCheckFrequencyMs: config.fileCheckFrequencyMs },
      ),
    );
  }
  if (config.staticPodURL) {
    sources.push(
      new HttpSource(
        { clock: deps.clock, logger, fetch: deps.fetch, onUpdate: podConfig.channel('http'), onError },
        {
          url: config.staticPodURL,
          nodeName: config.nodeName,
          headers: config.staticPodURLHeader,
          httpCheckFrequencyMs: config.httpCheckFrequencyMs,
        },
      ),
    );
  }
  return {
    podConfig,
    sources,
    start: async (signal) => {
      await Promise.all(sources.map((s) => s.start(signal)));
    },
    stop: async () => {
      await Promise.all(sources.map((s) => s.stop()));
    },
  };
}
