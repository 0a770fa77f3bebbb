/**
 * The exec probe over CRI ExecSync (the kubelet's exec prober + remote runtime): the runtime is asked to
 * bound the command by timeoutS, and the runner gives up at timeoutS on the injected clock whatever the
 * runtime does, failing with `command '<cmd>' timed out` — a hung exec never outlives its own timeout.
 * Exit 0 = success; another exit code = failure with the command's combined output (10 KiB max).
 * Other CRI errors are prober errors (the run is thrown away, as upstream).
 */
import type { Clock } from '../../util/clock.ts';
import type { CriClient } from '../../cri/types.ts';
import type { RunOutcome } from '../types.ts';
import { limitOutput } from './go-text.ts';

/** Extra time the CRI call's own deadline gets beyond timeoutS (the runner's clock fires first). */
const CRI_DEADLINE_SLACK_MS = 5000;

export type ExecSync = Pick<CriClient, 'execSync'>;

export function timedOutText(cmd: string[]): string {
  return `command '${cmd.join(' ')}' timed out`;
}

export type ExecOutcome = RunOutcome & { exitCode?: number };

/** One ExecSync bounded by timeoutS (0 = no timeout, as lifecycle hooks). */
export function createExecRunner(cri: ExecSync, clock: Clock): (containerId: string, cmd: string[], timeoutS: number) => Promise<ExecOutcome> {
  return async (containerId, cmd, timeoutS) => {
    const ac = new AbortController();
    let timer: { cancel(): void } | undefined;
    const timeout =
      timeoutS > 0
        ? new Promise<ExecOutcome>((resolve) => {
            timer = clock.setTimeout(() => {
              ac.abort();
              resolve({ status: 'failure', output: timedOutText(cmd) });
            }, timeoutS * 1000);
          })
        : undefined;
    const call = cri
      .execSync(
        { containerId, cmd, timeout: timeoutS },
        { signal: ac.signal, ...(timeoutS > 0 ? { timeoutMs: timeoutS * 1000 + CRI_DEADLINE_SLACK_MS } : {}) },
      )
      .then((r): ExecOutcome => {
        const output = limitOutput(Buffer.concat([Buffer.from(r.stdout ?? ''), Buffer.from(r.stderr ?? '')]));
        return { status: r.exitCode === 0 ? 'success' : 'failure', output, exitCode: r.exitCode };
      })
      .catch((err: unknown): ExecOutcome => {
        const e = err as { code?: string; message?: string };
        if (e.code === 'DEADLINE_EXCEEDED') return { status: 'failure', output: timedOutText(cmd) };
        return { status: 'unknown', output: '', error: e.message ?? String(err) };
      });
    try {
      return await (timeout ? Promise.race([call, timeout]) : call);
    } finally {
      timer?.cancel();
    }
  };
}
