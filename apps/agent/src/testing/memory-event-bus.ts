/** A small in-memory EventBus for the agent's tests (core ships the real one). */
import {
  eventMatches,
  type EventBus,
  type EventFilter,
  type NodeletEvent,
  type NodeletEventInput,
} from '@nodelet/core/events/types.ts';

export function createMemoryEventBus(now: () => number = () => Date.now(), capacity = 1000): EventBus {
  let seq = 0;
  const ring: NodeletEvent[] = [];
  const listeners = new Set<(e: NodeletEvent) => void>();
  return {
    publish(input: NodeletEventInput): NodeletEvent {
      const e = { ...input, seq: ++seq, time: input.time ?? new Date(now()).toISOString() } as NodeletEvent;
      ring.push(e);
      if (ring.length > capacity) ring.shift();
      for (const l of [...listeners]) {
        try {
          l(e);
        } catch {
          listeners.delete(l);
        }
      }
      return e;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    recent(filter?: EventFilter, limit = 200) {
      const matching = ring.filter((e) => eventMatches(e, filter));
      return matching.slice(Math.max(0, matching.length - limit));
    },
  };
}
