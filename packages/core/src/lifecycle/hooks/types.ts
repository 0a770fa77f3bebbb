/** Lifecycle hooks (postStart, preStop) as the kubelet's handler runner: seams and results. */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventRecorder } from '../../events/recorder.ts';
import type { HttpProbeRequest, RunOutcome } from '../../prober/types.ts';
import type { Clock } from '../../util/clock.ts';
import type { Logger } from '../../util/logger.ts';

export type HookName = 'PostStart' | 'PreStop';

/**
 * ok, or a failure carrying the kubelet's event reason (FailedPostStartHook / FailedPreStopHook), the
 * detailed handler message (for the container status / logs) and the event message ("PostStartHook failed",
 * without the detail so that secrets in commands or output do not leak into events, as upstream).
 */
export type HookResult =
  | { ok: true }
  | { ok: false; reason: 'FailedPostStartHook' | 'FailedPreStopHook'; message: string; eventMessage: string };

export interface HookDeps {
  clock: Clock;
  /** CRI ExecSync (createExecRunner from prober/runners/exec-runner.ts); timeoutS 0 = none. */
  exec(containerId: string, cmd: string[], timeoutS: number): Promise<RunOutcome & { exitCode?: number }>;
  /** An HTTP GET (createHttpRunner from prober/runners/http-runner.ts). */
  http(req: HttpProbeRequest): Promise<RunOutcome>;
  /** The pod's IP for handlers without a host ('' when unknown). */
  podIP(pod: V1Pod): string | Promise<string>;
  recorder?: EventRecorder;
  logger?: Logger;
}

export interface HookConfig {
  /** Bound on a postStart httpGet (seconds, default 120); preStop is bounded by the grace period. */
  postStartHttpTimeoutS?: number;
}
