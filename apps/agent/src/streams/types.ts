/** socket.io event maps for the lifecycle stream (clients import these types). */
import type { EventFilter, NodeletEvent } from '@nodelet/core/events/types.ts';
import type { NodeSummary } from '@nodelet/core/kubelet/types.ts';

export interface HelloPayload {
  node: NodeSummary;
  /** seq of the newest event on the bus when the client connected (0 when none). */
  seq: number;
}

export interface ServerToClientEvents {
  'nodelet:hello': (hello: HelloPayload) => void;
  'nodelet:event': (event: NodeletEvent) => void;
}

export interface ClientToServerEvents {
  'nodelet:subscribe': (filter: EventFilter) => void;
}

export interface SocketData {
  user: string;
  filter: EventFilter;
}

export const SOCKET_PATH = '/socket.io';
