/**
 * The agent's one event hub: every live stream starts here, whichever transport carries it. tRPC subscriptions
 * (trpc/feed.ts and the routers) and socket.io (socket-server.ts) are thin adapters that only turn a feed into
 * their wire form; the messages are typed once in types.ts (StreamMessages). A feed starts on a call, delivers
 * through `emit` and stops with the release it returns; `undefined` means the kubelet has no such source.
 */
import { eventMatches, type EventFilter } from '@nodelet/core/events';
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

export function createStreamHub(kubelet: KubeletApi, recorder?: FlightRecorderApi): StreamHub {
  const bus = kubelet.events;
  return {
    hello: () => ({ node: kubelet.node(), seq: bus.recent(undefined, 1)[0]?.seq ?? 0 }),
    events(filter, emit, replay = 0) {
      if (replay > 0) for (const e of bus.recent(filter, replay)) emit(e);
      return bus.subscribe((e) => {
        if (eventMatches(e, filter)) emit(e);
      });
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
