/**
 * Holds back 'started' / 'exited' events until CRI ContainerStatus agrees with them.
 *
 * Why: containerd publishes TaskStart / TaskExit before its CRI plugin has updated its own store (the CRI
 * plugin handles the same event asynchronously). Measured on containerd 1.6.20: right after a TaskExit
 * arrives, ContainerStatus still says CONTAINER_RUNNING (exit code 0) for some 30–80 ms. A PLEG that reacts
 * to an event by reading ContainerStatus would record the stale state; wrapped by this, it reads the new
 * one. CRI GetContainerEvents (containerd 1.7+) already sends its events after the store update.
 *
 * Events are handled one at a time, in order. Ids that ContainerStatus does not know (pod sandboxes,
 * containers already removed) pass at once; a state that never comes passes after `timeoutMs`.
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { ContainerState__Output } from './proto-types.ts';
import type { RuntimeContainerEvent, RuntimeEventSource } from './runtime-events.ts';
import { isNotFound, type CriClient } from './types.ts';

export interface CriSettleOptions {
  clock: Clock;
  logger?: Logger;
  /** Pause between ContainerStatus polls (default 5 ms). */
  pollMs?: number;
  /** Longest hold per event (default 2000 ms). */
  timeoutMs?: number;
}

export type SettleOutcome = 'settled' | 'unknown-id' | 'timeout' | 'error' | 'aborted';

const WANT: Partial<Record<RuntimeContainerEvent['kind'], ContainerState__Output[]>> = {
  started: ['CONTAINER_RUNNING', 'CONTAINER_EXITED'],
  exited: ['CONTAINER_EXITED'],
};

/** Polls ContainerStatus until the state matches `ev` (or the id is unknown, time runs out, or abort). */
export async function settleEvent(
  cri: CriClient,
  ev: RuntimeContainerEvent,
  opts: CriSettleOptions,
  signal: AbortSignal,
): Promise<SettleOutcome> {
  const want = WANT[ev.kind];
  if (!want) return 'settled';
  const timeoutMs = opts.timeoutMs ?? 2000;
  const deadline = opts.clock.monotonic() + timeoutMs;
  for (;;) {
    if (signal.aborted) return 'aborted';
    try {
      const { status } = await cri.containerStatus({ containerId: ev.containerId }, { signal, timeoutMs });
      if (!status) return 'unknown-id';
      if (want.includes(status.state)) return 'settled';
    } catch (err) {
      if (signal.aborted) return 'aborted';
      if (isNotFound(err)) return 'unknown-id';
      opts.logger?.debug('ContainerStatus failed while settling an event', { containerId: ev.containerId, error: String(err) });
      return 'error';
    }
    if (opts.clock.monotonic() >= deadline) return 'timeout';
    try {
      await opts.clock.sleep(opts.pollMs ?? 5, signal);
    } catch {
      return 'aborted';
    }
  }
}

/** `source`, with each started/exited event delayed until CRI ContainerStatus shows it. */
export function settleWithCri(source: RuntimeEventSource, cri: CriClient, opts: CriSettleOptions): RuntimeEventSource {
  const log = opts.logger?.child('runtime-events-settle');
  return {
    name: source.name,
    async *subscribe(signal: AbortSignal): AsyncGenerator<RuntimeContainerEvent> {
      for await (const ev of source.subscribe(signal)) {
        const outcome = await settleEvent(cri, ev, { ...opts, logger: log }, signal);
        if (outcome === 'aborted') return;
        if (outcome === 'timeout') log?.warn('CRI did not catch up with a runtime event', { kind: ev.kind, containerId: ev.containerId });
        yield ev;
      }
    },
  };
}
