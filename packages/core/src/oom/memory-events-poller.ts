/**
 * cgroup v2 OOM detection: polls memory.events of the watched cgroups; a growing oom_kill counter is one
 * OomEvent per kill (pid unknown). The first read of a cgroup is the baseline.
 */
import { readOptional, type HostFs } from '../cm/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import { withPod } from './kmsg-parser.ts';
import type { OomEvent } from './types.ts';

export interface MemoryEventsPollerDeps {
  fs: HostFs;
  clock: Clock;
  /** The cgroup2 mount ('/sys/fs/cgroup'). */
  unifiedMount: string;
  /** Logical cgroup names to watch (container cgroups). */
  cgroups: () => string[];
  emit: (e: OomEvent) => void;
}

export class MemoryEventsPoller {
  private readonly last = new Map<string, number>();
  private timer: TimerHandle | undefined;
  private inflight: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: MemoryEventsPollerDeps,
    private readonly config: { intervalMs?: number } = {},
  ) {}

  start(): void {
    this.timer ??= this.deps.clock.setInterval(() => {
      this.inflight = this.poll();
    }, this.config.intervalMs ?? 2_000);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Resolves when the last scheduled poll finished (tests). */
  idle(): Promise<void> {
    return this.inflight;
  }

  async poll(): Promise<void> {
    const names = this.deps.cgroups();
    const live = new Set(names);
    for (const k of this.last.keys()) if (!live.has(k)) this.last.delete(k);
    for (const name of names) {
      const text = await readOptional(this.deps.fs, `${this.deps.unifiedMount}${name === '/' ? '' : name}/memory.events`);
      const m = text === undefined ? undefined : /^oom_kill\s+(\d+)/m.exec(text);
      if (!m) continue;
      const n = Number(m[1]);
      const prev = this.last.get(name);
      this.last.set(name, n);
      if (prev === undefined || n <= prev) continue;
      for (let i = prev; i < n; i++) {
        this.deps.emit(withPod({ time: this.deps.clock.now(), pid: 0, processName: '', taskCgroup: name, oomCgroup: name, constraint: 'CONSTRAINT_MEMCG', source: 'memory.events' }));
      }
    }
  }
}
