/** Pure bookkeeping of the socket.io session: what to do when the agent says hello (first connect,
 * reconnect after a gap, or a restarted agent whose seq starts over). */
import type { EventFilter } from '../../lib/api-types.ts';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting';

export interface SessionState {
  /** Highest event seq seen (0 = none). */
  lastSeq: number;
  /** Bumped when the agent restarted (seq went backwards): event buffers must be dropped. */
  epoch: number;
  hellos: number;
}

export interface HelloPlan {
  next: SessionState;
  /** Filter to send with nodelet:subscribe (asks the agent to replay what we missed), if any. */
  resubscribe?: EventFilter;
  /** Refetch every query (we may have missed changes while disconnected). */
  resync: boolean;
}

export const INITIAL_SESSION: SessionState = { lastSeq: 0, epoch: 0, hellos: 0 };

export function planHello(s: SessionState, helloSeq: number): HelloPlan {
  const hellos = s.hellos + 1;
  if (s.hellos === 0) return { next: { ...s, hellos }, resync: false };
  if (helloSeq < s.lastSeq) {
    // A new agent process: its seq restarted. Forget what we had.
    return { next: { lastSeq: 0, epoch: s.epoch + 1, hellos }, resync: true };
  }
  const resubscribe = s.lastSeq > 0 && helloSeq > s.lastSeq ? { afterSeq: s.lastSeq } : undefined;
  return { next: { ...s, hellos }, resubscribe, resync: true };
}

export function noteSeq(s: SessionState, seq: number): SessionState {
  return seq > s.lastSeq ? { ...s, lastSeq: seq } : s;
}
