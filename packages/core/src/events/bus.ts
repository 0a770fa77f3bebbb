/** The in-memory typed event bus: seq numbering, a ring buffer of recent events, isolated listeners. */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { eventMatches, type EventBus, type EventFilter, type NodeletEvent, type NodeletEventInput } from './types.ts';

export interface EventBusDeps {
  clock: Clock;
  logger?: Logger;
}

export interface EventBusConfig {
  /** Ring buffer size (default 2000). */
  capacity?: number;
}

export const DEFAULT_BUS_CAPACITY = 2000;

export class InMemoryEventBus implements EventBus {
  private readonly ring: Array<NodeletEvent | undefined>;
  private start = 0;
  private count = 0;
  private seq = 0;
  private readonly listeners = new Set<(e: NodeletEvent) => void>();

  constructor(
    private readonly deps: EventBusDeps,
    config: EventBusConfig = {},
  ) {
    const cap = config.capacity ?? DEFAULT_BUS_CAPACITY;
    if (!(cap >= 1)) throw new Error(`invalid bus capacity ${cap}`);
    this.ring = new Array<NodeletEvent | undefined>(cap);
  }

  /** The seq of the last published event (0 before any). */
  lastSeq(): number {
    return this.seq;
  }

  publish(input: NodeletEventInput): NodeletEvent {
    const e = { ...input, seq: ++this.seq, time: input.time ?? new Date(this.deps.clock.now()).toISOString() } as NodeletEvent;
    this.push(e);
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        this.listeners.delete(l);
        this.deps.logger?.error('event bus listener threw; removed', { error: String(err), seq: e.seq });
      }
    }
    return e;
  }

  subscribe(listener: (e: NodeletEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  listenerCount(): number {
    return this.listeners.size;
  }

  recent(filter?: EventFilter, limit = 200): NodeletEvent[] {
    const out: NodeletEvent[] = [];
    // Walk newest → oldest so limit keeps the most recent, then reverse.
    for (let i = this.count - 1; i >= 0 && out.length < limit; i--) {
      const e = this.ring[(this.start + i) % this.ring.length];
      if (!e) continue;
      if (filter?.afterSeq !== undefined && e.seq <= filter.afterSeq) break;
      if (eventMatches(e, filter)) out.push(e);
    }
    return out.reverse();
  }

  private push(e: NodeletEvent): void {
    const cap = this.ring.length;
    if (this.count < cap) {
      this.ring[(this.start + this.count) % cap] = e;
      this.count++;
    } else {
      this.ring[this.start] = e;
      this.start = (this.start + 1) % cap;
    }
  }
}
