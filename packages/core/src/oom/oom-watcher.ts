/**
 * The OOM watcher: kmsg records → OomParser → OomEvents; events in a pod go to sink.containerOom (the
 * kubelet reports the container as OOMKilled), system OOMs (see isSystemOom) to sink.systemOom (Warning
 * "SystemOOM" on the Node); every event goes to subscribers. Also ingests cgroup v2 memory.events kills, dropping those the kernel log already reported.
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { OomParser, parseKmsgRecord, systemOomMessage } from './kmsg-parser.ts';
import type { KmsgSource, OomEvent, OomSink } from './types.ts';

export interface OomWatcherDeps {
  source: KmsgSource;
  clock: Clock;
  logger: Logger;
  sink: OomSink;
  /** Boot time (epoch ms) to turn kmsg's µs-since-boot into wall time; absent = time of reading. */
  bootTimeMs?: number;
}

export interface OomWatcherConfig {
  /** Events kept for recent()/oomKilled() (default 100). */
  keep?: number;
  /** A memory.events kill within this window of a kmsg kill in the same cgroup is the same kill (default 30 s). */
  dedupeWindowMs?: number;
  /** This agent's pods; kills in other agents' pods (another --cgroup-root on the same host) are dropped. */
  scope?: OomScope;
}

/**
 * Which pod cgroups belong to this agent: those under one of `podRoots` (its '<cgroup-root>/kubepods'),
 * or of a pod it knows. Absent = every pod cgroup on the host.
 */
export interface OomScope {
  podRoots: string[];
  knownPod?: (uid: string) => boolean;
}

const under = (cg: string, root: string) => root === '/' || cg === root || cg.startsWith(`${root.replace(/\/$/, '')}/`);

/** Whether an event is this agent's to report: not a kill inside some other agent's pod. */
export function inScope(e: OomEvent, scope: OomScope | undefined): boolean {
  if (!scope || e.podUid === undefined) return true;
  if (scope.podRoots.some((r) => under(e.taskCgroup, r))) return true;
  return scope.knownPod?.(e.podUid) ?? false;
}

/**
 * A kill outside any pod is a system OOM when the kernel ran out of memory globally (not a memcg limit) or
 * the victim sat in the root cgroup; a memcg-limit kill in some other cgroup (a systemd service with
 * MemoryMax) is only logged and streamed.
 */
export function isSystemOom(e: OomEvent): boolean {
  return e.podUid === undefined && (e.constraint !== 'CONSTRAINT_MEMCG' || e.taskCgroup === '/');
}

export class OomWatcher {
  private readonly parser = new OomParser();
  private readonly events: OomEvent[] = [];
  private readonly listeners = new Set<(e: OomEvent) => void>();
  private started = false;

  constructor(
    private readonly deps: OomWatcherDeps,
    private readonly config: OomWatcherConfig = {},
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.deps.source.start((raw) => this.onRecord(raw));
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.deps.source.stop();
  }

  subscribe(listener: (e: OomEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  recent(): OomEvent[] {
    return [...this.events];
  }

  /** The latest OOM kill recorded for a container id (for reason OOMKilled when the runtime does not say). */
  oomKilled(containerId: string): OomEvent | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i]?.containerId === containerId) return this.events[i];
    return undefined;
  }

  onRecord(raw: string): void {
    const rec = parseKmsgRecord(raw);
    if (!rec) return;
    const time = this.deps.bootTimeMs !== undefined ? Math.round(this.deps.bootTimeMs + rec.timestampUsec / 1000) : this.deps.clock.now();
    const e = this.parser.feed(rec.message, time);
    if (e) this.ingest(e);
  }

  /** Delivers an event (kmsg or memory.events). */
  ingest(e: OomEvent): void {
    if (e.source === 'memory.events' && this.seenInKmsg(e)) return;
    if (!inScope(e, this.config.scope)) {
      this.deps.logger.debug('OOM kill in a pod of another agent ignored', { pid: e.pid, cgroup: e.taskCgroup, podUid: e.podUid });
      return;
    }
    this.events.push(e);
    if (this.events.length > (this.config.keep ?? 100)) this.events.shift();
    this.deps.logger.info('OOM kill', { pid: e.pid, process: e.processName, cgroup: e.taskCgroup, podUid: e.podUid, containerId: e.containerId });
    if (e.podUid !== undefined) this.deps.sink.containerOom?.(e);
    else if (isSystemOom(e)) this.deps.sink.systemOom?.(e, systemOomMessage(e));
    for (const l of this.listeners) l(e);
  }

  private seenInKmsg(e: OomEvent): boolean {
    const window = this.config.dedupeWindowMs ?? 30_000;
    return this.events.some((k) => k.source === 'kmsg' && k.taskCgroup.startsWith(e.taskCgroup) && Math.abs(k.time - e.time) <= window);
  }
}
