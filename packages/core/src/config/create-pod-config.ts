/**
 * Wiring for createKubelet: a MergedPodConfig plus the file and/or http sources the configuration asks for.
 * Source errors are logged (naming the file/URL) and recorded as Warning events (reason FailedValidation) on
 * the pod they concern, or on the node.
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { EventBus } from '../events/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { FailedValidation } from '../events/reasons.ts';
import { FileSource } from './file-source.ts';
import { HttpSource, type FetchLike } from './http-source.ts';
import type { ManifestFs } from './manifest-fs.ts';
import { MergedPodConfig } from './pod-config.ts';
import type { PodConfig, PodSource, SourceError } from './types.ts';

/** Event messages are cut at 1 kB, the API's limit for an event's note. */
const MAX_EVENT_MESSAGE = 1024;

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
  const onError = (e: SourceError) => {
    logger?.warn('pod source error', { source: e.source, path: e.file, error: e.message });
    const ref = e.pod
      ? { kind: 'Pod', namespace: e.pod.namespace, name: e.pod.name }
      : { kind: 'Node', name: config.nodeName, uid: config.nodeName };
    const message = `Error validating pod from ${e.source} source ${e.file}: ${e.message}`;
    deps.recorder?.event(ref, 'Warning', FailedValidation, message.length > MAX_EVENT_MESSAGE ? `${message.slice(0, MAX_EVENT_MESSAGE - 3)}...` : message);
  };
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
