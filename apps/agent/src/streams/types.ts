/** socket.io event maps for the lifecycle stream (clients import these types). */
import type { EventFilter, NodeletEvent } from '@nodelet/core/events/types.ts';
import type { NodeSummary } from '@nodelet/core/kubelet/types.ts';
import type { PressureState } from '@nodelet/core/eviction/types.ts';
import type { MetricsMessage, MetricsSubscription } from './metrics-stream.ts';

export type { MetricsMessage, MetricsSubscription } from './metrics-stream.ts';

export interface HelloPayload {
  node: NodeSummary;
  /** seq of the newest event on the bus when the client connected (0 when none). */
  seq: number;
}

export interface ServerToClientEvents {
  'nodelet:hello': (hello: HelloPayload) => void;
  'nodelet:event': (event: NodeletEvent) => void;
  /** Live samples of the keys the client subscribed to with `nodelet:metrics:subscribe`. */
  'nodelet:metrics': (message: MetricsMessage) => void;
  /** Eviction state after every manager pass (10 s) while the client watches (`nodelet:pressure:watch`). */
  'nodelet:pressure': (state: PressureState) => void;
}

/** `nodelet:probes`: ask for every probe run (rate-limited), not only result changes, while connected. */
export interface ProbeStreamOptions {
  everyRun: boolean;
}

export interface ClientToServerEvents {
  'nodelet:subscribe': (filter: EventFilter) => void;
  /** Replace the watched container keys ('/' = node; [] = none). */
  'nodelet:metrics:subscribe': (sub: MetricsSubscription) => void;
  'nodelet:probes': (opts: ProbeStreamOptions) => void;
  /** Start / stop `nodelet:pressure` (the current state is sent at once). */
  'nodelet:pressure:watch': (opts: { watch: boolean }) => void;
}

export interface SocketData {
  user: string;
  filter: EventFilter;
}

export const SOCKET_PATH = '/socket.io';
