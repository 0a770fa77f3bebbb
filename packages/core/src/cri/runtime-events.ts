/**
 * Runtime-agnostic container lifecycle events for the evented PLEG, and the choice of where they come from:
 * CRI GetContainerEvents when the runtime implements it, else containerd's own event service when the
 * runtime is containerd (1.6 answers UNIMPLEMENTED to GetContainerEvents), else nothing (relist only).
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { createContainerdEventSource } from './containerd-events.ts';
import { createCriEventSource } from './cri-events.ts';
import { settleWithCri } from './cri-settle.ts';
import { createCriSandboxResolver } from './sandbox-resolver.ts';
import { CriError, type CriClient } from './types.ts';
import type { RuntimeEventSource } from './runtime-event-types.ts';

export type { ContainerExit, RuntimeContainerEvent, RuntimeContainerEventKind, RuntimeEventSource } from './runtime-event-types.ts';

export type EventSourceDetection =
  | { ok: true; source: RuntimeEventSource; message: string }
  | { ok: false; reason: 'EventsUnsupported' | 'RuntimeUnavailable'; message: string };

export interface DetectEventSourceDeps {
  clock: Clock;
  logger?: Logger;
  /** How long an open, silent GetContainerEvents stream must stay up to count as supported (default 1 s). */
  probeTimeoutMs?: number;
  /**
   * Builds the containerd source (tests inject). Default: createContainerdEventSource with a CRI sandbox
   * resolver, with settleWithCri's `settle(ev)` (resolves once ContainerStatus agrees) unless `settle` is
   * false.
   */
  createContainerdSource?: (endpoint: string) => RuntimeEventSource;
  /** Default true; see createContainerdSource. */
  settle?: boolean;
}

type ProbeResult = { kind: 'supported' } | { kind: 'error'; err: unknown } | { kind: 'ended' };

/** Opens GetContainerEvents and waits for an error, the first event, or probeTimeoutMs of quiet. */
async function probeCriEvents(cri: CriClient, clock: Clock, timeoutMs: number): Promise<ProbeResult> {
  const ac = new AbortController();
  const it = cri.getContainerEvents({ signal: ac.signal })[Symbol.asyncIterator]();
  let timer: { cancel(): void } | undefined;
  const quiet = new Promise<ProbeResult>((resolve) => {
    timer = clock.setTimeout(() => resolve({ kind: 'supported' }), timeoutMs);
  });
  const first = it.next().then(
    (r): ProbeResult => (r.done ? { kind: 'ended' } : { kind: 'supported' }),
    (err: unknown): ProbeResult => ({ kind: 'error', err }),
  );
  try {
    return await Promise.race([first, quiet]);
  } finally {
    timer?.cancel();
    ac.abort();
    void it.return?.().catch(() => {});
  }
}

/**
 * Picks the event source for the runtime behind `cri` (reached at `endpoint`). Never throws: an
 * unreachable runtime or one without events is `{ ok: false }` and the caller stays on relisting.
 */
export async function detectEventSource(
  cri: CriClient,
  endpoint: string,
  deps: DetectEventSourceDeps,
): Promise<EventSourceDetection> {
  const log = deps.logger?.child('runtime-events', { endpoint });
  const probe = await probeCriEvents(cri, deps.clock, deps.probeTimeoutMs ?? 1000);
  if (probe.kind === 'supported') {
    log?.info('using CRI GetContainerEvents');
    return { ok: true, source: createCriEventSource(cri), message: 'CRI GetContainerEvents' };
  }
  if (probe.kind === 'error' && !(probe.err instanceof CriError && probe.err.code === 'UNIMPLEMENTED')) {
    const message = `probing GetContainerEvents at ${endpoint} failed: ${errText(probe.err)}`;
    log?.warn(message);
    return { ok: false, reason: 'RuntimeUnavailable', message };
  }
  let runtimeName: string;
  try {
    runtimeName = (await cri.version({}, { timeoutMs: 10_000 })).runtimeName;
  } catch (err) {
    return { ok: false, reason: 'RuntimeUnavailable', message: `CRI Version at ${endpoint}: ${errText(err)}` };
  }
  const why = probe.kind === 'ended' ? 'ends its GetContainerEvents stream at once' : 'has no GetContainerEvents';
  if (runtimeName !== 'containerd') {
    const message = `runtime ${runtimeName || '(unnamed)'} at ${endpoint} ${why}: no event source, relist only`;
    log?.info(message);
    return { ok: false, reason: 'EventsUnsupported', message };
  }
  const make = deps.createContainerdSource ?? ((ep: string) => defaultContainerdSource(cri, ep, deps));
  log?.info(`containerd ${why}: using containerd's event service`);
  return { ok: true, source: make(endpoint), message: `containerd event service (CRI ${why})` };
}

function defaultContainerdSource(cri: CriClient, endpoint: string, deps: DetectEventSourceDeps): RuntimeEventSource {
  const raw = createContainerdEventSource(endpoint, { logger: deps.logger, resolveSandboxId: createCriSandboxResolver(cri) });
  return deps.settle === false ? raw : settleWithCri(raw, cri, { clock: deps.clock, logger: deps.logger });
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
