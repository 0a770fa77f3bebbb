/**
 * Tells when CRI ContainerStatus has caught up with a 'started' / 'exited' event.
 *
 * Why: containerd publishes TaskStart / TaskExit before its CRI plugin has updated its own store (the CRI
 * plugin handles the same event asynchronously). Measured on containerd 1.6.20: right after a TaskExit
 * arrives, ContainerStatus still says CONTAINER_RUNNING (exit code 0) for some 30–110 ms. Events pass at once
 * (an exit carries its exit code and time, enough to show it); a consumer that wants to read ContainerStatus
 * after an event first awaits the source's `settle(ev)`. CRI GetContainerEvents (containerd 1.7+) already
 * sends its events after the store update and needs none of this.
 *
 * A pod sandbox id is looked up with PodSandboxStatus (its READY / NOTREADY lags the same way); ids CRI does
 * not know (removed already) settle at once; a state that never comes settles after `timeoutMs`.
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { ContainerState__Output, PodSandboxState__Output } from './proto-types.ts';
import type { RuntimeContainerEvent, RuntimeEventSource } from './runtime-event-types.ts';
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

const WANT_SANDBOX: Partial<Record<RuntimeContainerEvent['kind'], PodSandboxState__Output>> = {
  started: 'SANDBOX_READY',
  exited: 'SANDBOX_NOTREADY',
};

type Look = 'match' | 'wait' | 'unknown';

/** One look at the id: as a container, else (not found) as a pod sandbox, whose status lags the same way. */
async function look(cri: CriClient, ev: RuntimeContainerEvent, sandbox: boolean, timeoutMs: number, signal: AbortSignal): Promise<Look | 'sandbox'> {
  const want = WANT[ev.kind] ?? [];
  if (!sandbox) {
    try {
      const { status } = await cri.containerStatus({ containerId: ev.containerId }, { signal, timeoutMs });
      if (status) return want.includes(status.state) ? 'match' : 'wait';
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return 'sandbox';
  }
  try {
    const { status } = await cri.podSandboxStatus({ podSandboxId: ev.containerId }, { signal, timeoutMs });
    if (!status) return 'unknown';
    return status.state === WANT_SANDBOX[ev.kind] ? 'match' : 'wait';
  } catch (err) {
    if (isNotFound(err)) return 'unknown';
    throw err;
  }
}

/**
 * Polls ContainerStatus (PodSandboxStatus for a sandbox id) until the state matches `ev` (or the id is
 * unknown, time runs out, or abort).
 */
export async function settleEvent(
  cri: CriClient,
  ev: RuntimeContainerEvent,
  opts: CriSettleOptions,
  signal: AbortSignal,
): Promise<SettleOutcome> {
  if (!WANT[ev.kind]) return 'settled';
  const timeoutMs = opts.timeoutMs ?? 2000;
  const deadline = opts.clock.monotonic() + timeoutMs;
  let sandbox = ev.sandboxId !== undefined && ev.sandboxId === ev.containerId;
  for (;;) {
    if (signal.aborted) return 'aborted';
    let got: Look | 'sandbox';
    try {
      got = await look(cri, ev, sandbox, timeoutMs, signal);
    } catch (err) {
      if (signal.aborted) return 'aborted';
      opts.logger?.debug('CRI status failed while settling an event', { containerId: ev.containerId, error: String(err) });
      return 'error';
    }
    if (got === 'sandbox') {
      sandbox = true;
      continue;
    }
    if (got === 'match') return 'settled';
    if (got === 'unknown') return 'unknown-id';
    if (opts.clock.monotonic() >= deadline) return 'timeout';
    try {
      await opts.clock.sleep(opts.pollMs ?? 5, signal);
    } catch {
      return 'aborted';
    }
  }
}

/** `source` with a `settle(ev)` that polls CRI ContainerStatus until it shows `ev` (events are not held). */
export function settleWithCri(source: RuntimeEventSource, cri: CriClient, opts: CriSettleOptions): RuntimeEventSource {
  const log = opts.logger?.child('runtime-events-settle');
  return {
    name: source.name,
    subscribe: (signal) => source.subscribe(signal),
    async settle(ev: RuntimeContainerEvent, signal: AbortSignal): Promise<SettleOutcome> {
      const outcome = await settleEvent(cri, ev, { ...opts, logger: log }, signal);
      if (outcome === 'timeout') log?.warn('CRI did not catch up with a runtime event', { kind: ev.kind, containerId: ev.containerId });
      return outcome;
    },
  };
}
