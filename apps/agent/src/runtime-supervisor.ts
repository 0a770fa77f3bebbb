/**
 * Keeps the embedded runtime alive. It runs detached (it outlives agent restarts), so the agent watches it by
 * its pid file: when the process is gone (or a process reusing its pid is not it), or it stops answering on its
 * socket for `hungMs`, the agent starts it again after a capped exponential back-off (0.5 s doubling to 10 s,
 * back to 0.5 s once a runtime stayed up `stableMs`), logs it and reports it (`onRestart`: an event). The new
 * runtime adopts the pods from its persisted state and the live processes.
 */
import type { Clock, TimerHandle, Logger } from '@nodelet/core/util';
import { embeddedRuntimePaths, isRuntimeProcess, probeEndpoint, readPid, spawnRuntime, type RuntimeLaunch, type RuntimePaths } from './runtime-launcher.ts';

export interface SupervisorConfig {
  /** How often the pid is checked (1 s: each look reads the pid file and the process's command line; at 250 ms
   * that was 4 % of the agent's busy time at 110 pods, for a restart 0.75 s sooner). */
  checkMs: number;
  /** How often the socket is probed while the process lives. */
  probeMs: number;
  /** A live runtime not answering this long is killed and restarted. */
  hungMs: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Up this long: the next restart waits initialBackoffMs again. */
  stableMs: number;
}

export const DEFAULT_SUPERVISOR_CONFIG: SupervisorConfig = {
  checkMs: 1_000,
  probeMs: 2_000,
  hungMs: 10_000,
  initialBackoffMs: 500,
  maxBackoffMs: 10_000,
  stableMs: 60_000,
};

export interface RuntimeRestart {
  /** Restarts since the agent started. */
  restarts: number;
  /** Why the runtime was restarted (e.g. 'process 123 is gone'). */
  cause: string;
  result: RuntimeLaunch;
}

export interface SupervisorDeps {
  logger: Logger;
  clock: Clock;
  paths: RuntimePaths;
  /** Starts the runtime and waits for its socket (runtime-launcher's spawnRuntime). */
  spawn: () => Promise<RuntimeLaunch>;
  /** True when `pid` is this runtime (default: alive, and its command line names the socket). */
  isRuntime?: (pid: number) => boolean;
  probe?: (endpoint: string) => Promise<boolean>;
  kill?: (pid: number) => void;
  onRestart?: (r: RuntimeRestart) => void;
}

export class RuntimeSupervisor {
  private readonly config: SupervisorConfig;
  private timer: TimerHandle | undefined;
  private busy = false;
  private backoffMs: number;
  private upSince: number;
  private lastProbe = Number.NEGATIVE_INFINITY;
  private failingSince: number | undefined;
  private stopped = new AbortController();
  restarts = 0;

  constructor(
    private readonly deps: SupervisorDeps,
    config: Partial<SupervisorConfig> = {},
  ) {
    this.config = { ...DEFAULT_SUPERVISOR_CONFIG, ...config };
    this.backoffMs = this.config.initialBackoffMs;
    this.upSince = deps.clock.monotonic();
  }

  start(): void {
    if (this.timer) return;
    this.stopped = new AbortController();
    this.timer = this.deps.clock.setInterval(() => void this.tick(), this.config.checkMs);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.stopped.abort();
  }

  /** One look at the runtime; restarts it when it is dead (tests call this directly). */
  async tick(): Promise<void> {
    if (this.busy || this.stopped.signal.aborted) return;
    this.busy = true;
    try {
      const cause = await this.deadCause();
      if (cause) await this.restart(cause);
    } finally {
      this.busy = false;
    }
  }

  private async deadCause(): Promise<string | undefined> {
    const { paths, clock } = this.deps;
    const pid = readPid(paths.pidFile);
    if (pid === undefined) return `no pid in ${paths.pidFile}`;
    const isRuntime = this.deps.isRuntime ?? ((p: number) => isRuntimeProcess(p, paths.socket));
    if (!isRuntime(pid)) return `process ${pid} is gone`;
    const now = clock.monotonic();
    if (now - this.upSince >= this.config.stableMs) this.backoffMs = this.config.initialBackoffMs;
    if (now - this.lastProbe < this.config.probeMs && this.failingSince === undefined) return undefined;
    this.lastProbe = now;
    if (await (this.deps.probe ?? probeEndpoint)(paths.endpoint)) {
      this.failingSince = undefined;
      return undefined;
    }
    this.failingSince ??= now;
    if (now - this.failingSince < this.config.hungMs) return undefined;
    this.deps.logger.warn('embedded runtime is not answering; killing it', { pid, forMs: Math.round(now - this.failingSince) });
    (this.deps.kill ?? ((p: number) => process.kill(p, 'SIGKILL')))(pid);
    return `process ${pid} did not answer on ${paths.socket} for ${Math.round((now - this.failingSince) / 1000)} s`;
  }

  private async restart(cause: string): Promise<void> {
    const { clock, logger } = this.deps;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.config.maxBackoffMs);
    this.failingSince = undefined;
    logger.warn('embedded runtime died; restarting it', { cause, inMs: delay });
    try {
      await clock.sleep(delay, this.stopped.signal);
    } catch {
      return;
    }
    const result = await this.deps.spawn();
    this.restarts++;
    this.upSince = clock.monotonic();
    this.lastProbe = this.upSince;
    if (result.ok) logger.info('embedded runtime restarted', { pid: result.spawnedPid, restarts: this.restarts });
    else logger.error('embedded runtime failed to restart; retrying', { message: result.message, nextInMs: this.backoffMs });
    this.deps.onRestart?.({ restarts: this.restarts, cause, result });
  }
}

export interface EmbeddedSupervisionDeps {
  logger: Logger;
  clock: Clock;
  nodeName: string;
  /** Where restarts are recorded as Node events (the kubelet's recorder, once it exists). */
  recorder: () => { event(ref: { kind: string; name: string }, type: 'Normal' | 'Warning', reason: string, message: string): unknown } | undefined;
}

/** The supervisor of the embedded runtime under `rootDir`: restarts are logged and recorded as Node events. */
export function superviseEmbeddedRuntime(rootDir: string, d: EmbeddedSupervisionDeps, config: Partial<SupervisorConfig> = {}): RuntimeSupervisor {
  const paths = embeddedRuntimePaths(rootDir);
  const logger = d.logger.child('runtime-supervisor');
  return new RuntimeSupervisor(
    {
      logger,
      clock: d.clock,
      paths,
      spawn: () => spawnRuntime(paths, { logger, clock: d.clock }),
      onRestart: ({ restarts, cause, result }) => {
        const ref = { kind: 'Node', name: d.nodeName };
        if (result.ok) d.recorder()?.event(ref, 'Warning', 'ContainerRuntimeRestarted', `embedded container runtime died (${cause}); restarted (pid ${result.spawnedPid ?? 'unknown'}, restart ${restarts})`);
        else d.recorder()?.event(ref, 'Warning', 'ContainerRuntimeRestartFailed', `embedded container runtime died (${cause}) and did not come back: ${result.message}`);
      },
    },
    config,
  );
}
