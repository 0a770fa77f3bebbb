/**
 * The tRPC transport of the event hub (streams/hub.ts): a hub feed becomes the async generator of a subscription,
 * through a bounded queue (a client that falls behind loses the oldest messages); the generator ends when the
 * client goes (the signal aborts) and then releases the feed.
 */
import { tracked, type TrackedEnvelope } from '@trpc/server';
import type { EventFilter, NodeletEvent } from '@nodelet/core/events';
import type { Release, StreamHub } from '../streams/hub.ts';

/** Events a client reconnecting with lastEventId may get replayed from the bus's recent ring. */
export const MAX_REPLAY = 5000;
const QUEUE_CAPACITY = 1000;

/** A bounded async queue fed by a hub feed and drained by a subscription; ends when the signal aborts. */
class EventQueue<T> {
  private items: T[] = [];
  private wake: (() => void) | undefined;
  dropped = 0;

  constructor(private readonly capacity = QUEUE_CAPACITY) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity) {
      this.items.shift();
      this.dropped++;
    }
    this.wake?.();
  }

  async *drain(signal: AbortSignal | undefined): AsyncGenerator<T> {
    const onAbort = () => this.wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal?.aborted) {
        const next = this.items.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** What a started feed delivers, until the signal aborts; nothing (the subscription ends) when the source is absent. */
export async function* feed<T>(
  signal: AbortSignal | undefined,
  start: (push: (message: T) => void) => Release | undefined,
  capacity = QUEUE_CAPACITY,
): AsyncGenerator<T> {
  const queue = new EventQueue<T>(capacity);
  const release = start((m) => queue.push(m));
  if (!release) return;
  try {
    yield* queue.drain(signal);
  } finally {
    release();
  }
}

export interface TrackedEventsOptions<E extends NodeletEvent> {
  /** From the client's last seen id (tRPC's lastEventId): events after it are replayed first. */
  lastEventId?: string | null | undefined;
  /** Narrows the event type (the filter's `types` already selects it). */
  only: (e: NodeletEvent) => e is E;
  /** Held while the subscription lives (e.g. every probe run). */
  hold?: () => Release;
}

/** Bus events as tracked(String(seq), event), so that a reconnecting client first receives what it missed. */
export function trackedEvents<E extends NodeletEvent>(
  hub: StreamHub,
  signal: AbortSignal | undefined,
  filter: EventFilter,
  opts: TrackedEventsOptions<E>,
): AsyncGenerator<TrackedEnvelope<E>> {
  const after = opts.lastEventId ? Number(opts.lastEventId) : NaN;
  const resume = Number.isFinite(after);
  const events = feed<NodeletEvent>(
    signal,
    (push) => {
      const stop = hub.events(resume ? { ...filter, afterSeq: after } : filter, push, resume ? MAX_REPLAY : 0);
      const release = opts.hold?.();
      return () => {
        release?.();
        stop();
      };
    },
    resume ? MAX_REPLAY + QUEUE_CAPACITY : QUEUE_CAPACITY,
  );
  return (async function* () {
    for await (const e of events) if (opts.only(e)) yield tracked(String(e.seq), e);
  })();
}

export const anyEvent = (_e: NodeletEvent): _e is NodeletEvent => true;
