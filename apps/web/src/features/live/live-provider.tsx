'use client';
/**
 * One socket.io connection per browser tab (same origin, path /socket.io, proxied to the agent).
 * Exposes the connection state, the node from nodelet:hello, and a subscribe() for nodelet:event.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@nodelet/agent/streams/types.ts';
import type { NodeletEvent, NodeSummary } from '../../lib/api-types.ts';
import { INITIAL_SESSION, noteSeq, planHello, type ConnectionState } from './live-session.ts';


type Listener = (e: NodeletEvent) => void;

export interface LiveValue {
  state: ConnectionState;
  node?: NodeSummary;
  /** Changes when the agent restarted: event buffers should reset. */
  epoch: number;
  subscribe(listener: Listener): () => void;
}

const LiveContext = createContext<LiveValue | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const listeners = useRef(new Set<Listener>());
  const session = useRef(INITIAL_SESSION);
  const [state, setState] = useState<ConnectionState>('connecting');
  const [node, setNode] = useState<NodeSummary>();
  const [epoch, setEpoch] = useState(0);

  useEffect(() => {
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({ path: '/socket.io' });
    socket.on('nodelet:hello', (h) => {
      const plan = planHello(session.current, h.seq);
      session.current = plan.next;
      setNode(h.node);
      setEpoch(plan.next.epoch);
      setState('live');
      if (plan.resubscribe) socket.emit('nodelet:subscribe', plan.resubscribe);
      if (plan.resync) void queryClient.invalidateQueries();
    });
    socket.on('nodelet:event', (e) => {
      session.current = noteSeq(session.current, e.seq);
      for (const l of listeners.current) l(e);
    });
    socket.on('disconnect', () => setState('reconnecting'));
    socket.on('connect_error', () => setState((s) => (s === 'connecting' ? 'connecting' : 'reconnecting')));
    socket.io.on('reconnect_attempt', () => setState('reconnecting'));
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [queryClient]);

  const subscribe = useCallback((l: Listener) => {
    listeners.current.add(l);
    return () => {
      listeners.current.delete(l);
    };
  }, []);

  const value = useMemo(() => ({ state, node, epoch, subscribe }), [state, node, epoch, subscribe]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

export function useLive(): LiveValue {
  const v = useContext(LiveContext);
  if (!v) throw new Error('useLive outside LiveProvider');
  return v;
}
