/** Builds HookDeps from the CRI client (ExecSync) and the real HTTP runner (User-Agent kube-lifecycle/<ver>). */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventRecorder } from '../../events/recorder.ts';
import { createExecRunner, type ExecSync } from '../../prober/runners/exec-runner.ts';
import { createHttpRunner } from '../../prober/runners/http-runner.ts';
import type { Clock } from '../../util/clock.ts';
import type { Logger } from '../../util/logger.ts';
import type { HookDeps } from './types.ts';

export interface CreateHookDepsInput {
  cri: ExecSync;
  clock: Clock;
  /** The pod's IP for httpGet handlers without a host (e.g. from the sandbox status). */
  podIP(pod: V1Pod): string | Promise<string>;
  recorder?: EventRecorder;
  logger?: Logger;
  /** `<major>.<minor>` (default '1.34'). */
  kubeletVersion?: string;
}

export function createHookDeps(i: CreateHookDepsInput): HookDeps {
  return {
    clock: i.clock,
    exec: createExecRunner(i.cri, i.clock),
    http: createHttpRunner({ clock: i.clock, kubeletVersion: i.kubeletVersion }),
    podIP: i.podIP,
    recorder: i.recorder,
    logger: i.logger,
  };
}
