/**
 * What the agent streams, typed once. The event hub (hub.ts) delivers these messages; the two transports carry
 * them unchanged: tRPC subscriptions (trpc/) and socket.io events (socket-server.ts). Clients import these types.
 */
import type { EventFilter, NodeletEvent } from '@nodelet/core/events';
import type { NodeSummary } from '@nodelet/core/kubelet';
import type { PressureState } from '@nodelet/core/eviction';
import type { ContainerSample } from '@nodelet/core/stats';
import type { RecorderEntry, RecorderFollow } from '../recorder/types.ts';

/** One live stats sample of a container key ('/' = the node). */
export interface MetricsMessage {
  key: string;
  sample: ContainerSample;
}

/** Container keys to sample live (from stats.containers, '/' = the node; an empty list stops). */
export interface MetricsSubscription {
  keys: string[];
}

/** Each feed of the hub and the message it delivers, with the procedure / event that carries it. */
export interface StreamMessages {
  /** tRPC `lifecycle.onEvent`, `probes.onEvent` (tracked by seq) · socket.io `nodelet:event`. */
  event: NodeletEvent;
  /** tRPC `stats.onSample` · socket.io `nodelet:metrics`. */
  metrics: MetricsMessage;
  /** tRPC `eviction.onState` (the state now, then after every manager pass). */
  pressure: PressureState;
  /** tRPC `recorder.onEntry` · socket.io `nodelet:recorder` (flight recorder rows; a growing span keeps its id). */
  record: RecorderEntry;
}

export interface HelloPayload {
  node: NodeSummary;
  /** seq of the newest event on the bus when the client connected (0 when none). */
  seq: number;
}

export interface ServerToClientEvents {
  'nodelet:hello': (hello: HelloPayload) => void;
  'nodelet:event': (event: StreamMessages['event']) => void;
  /** Live samples of the keys the client subscribed to with `nodelet:metrics:subscribe`. */
  'nodelet:metrics': (message: StreamMessages['metrics']) => void;
  /** Flight recorder rows after `nodelet:recorder:follow` (replayed from its `from`, then live; upsert by id). */
  'nodelet:recorder': (entry: StreamMessages['record']) => void;
  /** The recorder refused the follow (bad input) or is off. */
  'nodelet:recorder:error': (error: { message: string }) => void;
}

/** `nodelet:probes`: ask for every probe run (rate-limited), not only result changes, while connected. */
export interface ProbeStreamOptions {
  everyRun: boolean;
}

export interface ClientToServerEvents {
  /** Replace the socket's filter; matching recent events are replayed first. */
  'nodelet:subscribe': (filter: EventFilter) => void;
  /** Replace the watched container keys ('/' = node; [] = none). */
  'nodelet:metrics:subscribe': (sub: MetricsSubscription) => void;
  'nodelet:probes': (opts: ProbeStreamOptions) => void;
  /** Replace the socket's flight recorder follow (replay from `from`, then live); null stops it. */
  'nodelet:recorder:follow': (q: RecorderFollow | null) => void;
}

export interface SocketData {
  user: string;
}

export const SOCKET_PATH = '/socket.io';
