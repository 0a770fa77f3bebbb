/**
 * The agent's one event hub: every live stream starts here, whichever transport carries it. tRPC subscriptions
 * (trpc/feed.ts and the routers) and socket.io (socket-server.ts) are thin adapters that only turn a feed into
 * their wire form; the messages are typed once in types.ts (StreamMessages). A feed starts on a call, delivers
 * through `emit` and stops with the release it returns; `undefined` means the kubelet has no such source.
 */
import { eventMatches, type EventBus, type EventFilter, type NodeletEvent } from '@nodelet/core/events';
import type { KubeletApi } from '@nodelet/core/kubelet';
import type { FlightRecorderApi, RecorderFollow } from '../recorder/types.ts';
import type { HelloPayload, StreamMessages } from './types.ts';

export type Emit<K extends keyof StreamMessages> = (message: StreamMessages[K]) => void;
export type Release = () => void;

export interface StreamHub {
  /** The node and the newest event's seq (what a client compares with the last seq it saw). */
  hello(): HelloPayload;
  /**
   * Bus events matching `filter`: first the newest `replay` matching events of the bus's recent ring (oldest
   * first), then every new one. Replay and subscription happen in one synchronous step: none is missed or repeated.
   * New events reach the feeds once per event-loop turn (deferredFanOut), never inside the publisher's call.
   */
  events(filter: EventFilter, emit: Emit<'event'>, replay?: number): Release;
  /** Live samples of one stats key at the watch rate (reference-counted in the kubelet: unwatched keys are not sampled fast). */
  metrics(key: string, emit: Emit<'metrics'>): Release | undefined;
  /** The eviction state now, then after every manager pass. */
  pressure(emit: Emit<'pressure'>): Release | undefined;
  /** Every probe run is published (rate-limited), not only result changes, while at least one holder keeps it. */
  probeRuns(): Release;
  /** Flight recorder rows: the newest since `from` (oldest first), then every new or grown row; undefined when it is off. */
  records?(q: RecorderFollow, emit: Emit<'record'>): Release | undefined;
}

export function createStreamHub(kubelet: KubeletApi, recorder?: FlightRecorderApi, defer: (run: () => void) => void = setImmediate): StreamHub {
  const bus = kubelet.events;
  const fanOut = deferredFanOut(bus, defer);
  return {
    hello: () => ({ node: kubelet.node(), seq: bus.recent(undefined, 1)[0]?.seq ?? 0 }),
    events(filter, emit, replay = 0) {
      if (replay > 0) for (const e of bus.recent(filter, replay)) emit(e);
      return fanOut.add(filter, emit);
    },
    metrics: (key, emit) => kubelet.stats?.watch(key, (k, sample) => emit({ key: k, sample })),
    pressure(emit) {
      const api = kubelet.eviction;
      if (!api) return undefined;
      emit(api.state());
      return api.watch(emit);
    },
    probeRuns: () => kubelet.probes?.requestEveryRun() ?? (() => {}),
    records: (q, emit) => recorder?.follow(q, emit),
  };
}

interface Feed {
  emit: Emit<'event'>;
  /** Its bus subscription's release; undefined once released (queued events are then dropped). */
  stop?: () => void;
}

/**
 * Feeds fed once per event-loop turn: each feed's bus listener only queues, and one deferred run delivers the turn's
 * events in publish order. A publisher (the status manager on a pod's start path, a PLEG event) returns before any
 * transport encodes and writes — socket.io's encoding and a websocket write were ≈ 1.4 ms of a pod start's path
 * before its RunPodSandbox left — and a burst's events go out together.
 */
function deferredFanOut(bus: EventBus, defer: (run: () => void) => void) {
  let queue: Array<[Feed, NodeletEvent]> = [];
  const release = (f: Feed) => {
    f.stop?.();
    f.stop = undefined;
  };
  const deliver = () => {
    const batch = queue;
    queue = [];
    for (const [f, e] of batch) {
      if (!f.stop) continue;
      try {
        f.emit(e);
      } catch {
        release(f); // as the bus does with a throwing listener
      }
    }
  };
  return {
    add(filter: EventFilter, emit: Emit<'event'>): Release {
      const feed: Feed = { emit };
      feed.stop = bus.subscribe((e) => {
        if (eventMatches(e, filter) && queue.push([feed, e]) === 1) defer(deliver);
      });
      return () => release(feed);
    },
  };
}
