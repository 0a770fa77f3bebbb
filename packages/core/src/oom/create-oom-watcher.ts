/**
 * Wires the OOM watcher for a host: /dev/kmsg always (root-readable; a missing device only logs), plus
 * memory.events polling of the given container cgroups when the unified hierarchy holds the memory
 * controller (cgroup v2), deduplicated against the kernel log.
 */
import type { CgroupLayout, HostFs } from '../cm/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { KmsgFileSource } from './kmsg-source.ts';
import { MemoryEventsPoller } from './memory-events-poller.ts';
import { OomWatcher, type OomScope } from './oom-watcher.ts';
import type { KmsgSource, OomSink } from './types.ts';

export interface OomWatcherSetupDeps {
  fs: HostFs;
  clock: Clock;
  logger: Logger;
  layout: CgroupLayout;
  sink: OomSink;
  /** Container cgroups to poll on v2. */
  cgroups: () => string[];
  /** Boot time in epoch ms (from /proc/stat btime × 1000). */
  bootTimeMs?: number;
  /** Report only kills in this agent's pods (see OomScope). */
  scope?: OomScope;
  /** Override the kernel log source (tests). */
  source?: KmsgSource;
}

export interface OomWatcherHandle {
  watcher: OomWatcher;
  start(): void;
  stop(): void;
}

export function createOomWatcher(deps: OomWatcherSetupDeps, config: { kmsgPath?: string; pollIntervalMs?: number } = {}): OomWatcherHandle {
  const logger = deps.logger.child('oom-watcher');
  const source = deps.source ?? new KmsgFileSource({ clock: deps.clock, logger }, config.kmsgPath ? { path: config.kmsgPath } : {});
  const watcher = new OomWatcher(
    { source, clock: deps.clock, logger, sink: deps.sink, ...(deps.bootTimeMs !== undefined ? { bootTimeMs: deps.bootTimeMs } : {}) },
    deps.scope ? { scope: deps.scope } : {},
  );
  const v2 = deps.layout.driver === 'v2' && deps.layout.unified !== undefined;
  const poller = v2
    ? new MemoryEventsPoller({ fs: deps.fs, clock: deps.clock, unifiedMount: deps.layout.unified as string, cgroups: deps.cgroups, emit: (e) => watcher.ingest(e) }, config.pollIntervalMs ? { intervalMs: config.pollIntervalMs } : {})
    : undefined;
  return {
    watcher,
    start() {
      watcher.start();
      poller?.start();
    },
    stop() {
      poller?.stop();
      watcher.stop();
    },
  };
}
