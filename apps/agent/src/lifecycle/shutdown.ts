/**
 * Ordered, bounded shutdown: each step runs after the previous one finished, failed or timed out; a step that
 * hangs never blocks the ones after it.
 */
import type { Clock, Logger } from '@nodelet/core/util';

export interface ShutdownStep {
  name: string;
  timeoutMs: number;
  run(): Promise<void> | void;
}

export interface StepOutcome {
  name: string;
  outcome: 'done' | 'failed' | 'timedOut';
  error?: string;
}

export async function runShutdown(steps: ShutdownStep[], deps: { clock: Clock; logger: Logger }): Promise<StepOutcome[]> {
  const results: StepOutcome[] = [];
  for (const step of steps) {
    deps.logger.info('shutdown step', { step: step.name });
    const result = await runStep(step, deps.clock);
    if (result.outcome !== 'done') deps.logger.warn('shutdown step did not finish cleanly', { ...result });
    results.push(result);
  }
  return results;
}

async function runStep(step: ShutdownStep, clock: Clock): Promise<StepOutcome> {
  let timer: { cancel(): void } | undefined;
  const timeout = new Promise<StepOutcome>((resolve) => {
    timer = clock.setTimeout(() => resolve({ name: step.name, outcome: 'timedOut' }), step.timeoutMs);
  });
  const work = (async (): Promise<StepOutcome> => {
    try {
      await step.run();
      return { name: step.name, outcome: 'done' };
    } catch (err) {
      return { name: step.name, outcome: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
  })();
  try {
    return await Promise.race([work, timeout]);
  } finally {
    timer?.cancel();
  }
}
