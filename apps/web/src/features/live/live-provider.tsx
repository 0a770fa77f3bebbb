'use client';
/**
 * One socket.io connection per browser tab (same origin, path /socket.io, proxied to the agent).
 * Exposes the connection state, the node from nodelet:hello, and a subscribe() for nodelet:event.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, MetricsMessage, ServerToClientEvents } from '@nodelet/agent/types';
import type { NodeletEvent, NodeSummary } from '../../lib/api-types.ts';
import { INITIAL_SESSION, noteSeq, planHello, type ConnectionState } from './live-session.ts';
import { RefCounts } from './ref-counts.ts';


type Listener = (e: NodeletEvent) => void;
type MetricsListener = (m: MetricsMessage) => void;
type NodeletSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
const EVERY_RUN = 'probes:everyRun';

export interface LiveValue {
  state: ConnectionState;
  /** socket.io reconnection attempts since the connection dropped (0 while live). */
  attempt: number;
  node?: NodeSummary;
  /** Changes when the agent restarted: event buffers should reset. */
  epoch: number;
  subscribe(listener: Listener): () => void;
  /**
   * Live samples of stats container keys ('/' = node) over `nodelet:metrics`, reference-counted: the agent is
   * asked for the union of every watcher's keys and stops sampling a key when its last watcher leaves.
   */
  watchMetrics(keys: readonly string[], listener: MetricsListener): () => void;
  /** Asks the agent for every probe run (not only result changes) while at least one caller holds it. */
  requestProbeRuns(): () => void;
}

const LiveContext = createContext<LiveValue | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const listeners = useRef(new Set<Listener>());
  const session = useRef(INITIAL_SESSION);
  const [state, setState] = useState<ConnectionState>('connecting');
  const [attempt, setAttempt] = useState(0);
  const [node, setNode] = useState<NodeSummary>();
  const [epoch, setEpoch] = useState(0);
  const socketRef = useRef<NodeletSocket | null>(null);
  const metricKeys = useRef(new RefCounts());
  const metricListeners = useRef(new Set<MetricsListener>());
  const probeRuns = useRef(new RefCounts());

  useEffect(() => {
    const socket: NodeletSocket = io({ path: '/socket.io' });
    socketRef.current = socket;
    socket.on('nodelet:hello', (h) => {
      // A (re)connected socket has no watches on the agent's side: restate them.
      const keys = metricKeys.current.keys();
      if (keys.length) socket.emit('nodelet:metrics:subscribe', { keys });
      if (probeRuns.current.has(EVERY_RUN)) socket.emit('nodelet:probes', { everyRun: true });
      const plan = planHello(session.current, h.seq);
      session.current = plan.next;
      setNode(h.node);
      setEpoch(plan.next.epoch);
      setState('live');
      setAttempt(0);
      if (plan.resubscribe) socket.emit('nodelet:subscribe', plan.resubscribe);
      if (plan.resync) void queryClient.invalidateQueries();
    });
    socket.on('nodelet:event', (e) => {
      session.current = noteSeq(session.current, e.seq);
      for (const l of listeners.current) l(e);
    });
    socket.on('nodelet:metrics', (m) => {
      for (const l of metricListeners.current) l(m);
    });
    socket.on('disconnect', (reason) => {
      setState('reconnecting');
      // An agent that shuts down closes its sockets itself ("io server disconnect"): socket.io does not reconnect
      // after that on its own, so the console would never see the agent come back.
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on('connect_error', () => setState((s) => (s === 'connecting' ? 'connecting' : 'reconnecting')));
    socket.io.on('reconnect_attempt', (n) => {
      setState('reconnecting');
      setAttempt(n);
    });
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
      socketRef.current = null;
    };
  }, [queryClient]);

  const subscribe = useCallback((l: Listener) => {
    listeners.current.add(l);
    return () => {
      listeners.current.delete(l);
    };
  }, []);

  const watchMetrics = useCallback((keys: readonly string[], l: MetricsListener) => {
    metricListeners.current.add(l);
    if (metricKeys.current.add(keys)) socketRef.current?.emit('nodelet:metrics:subscribe', { keys: metricKeys.current.keys() });
    return () => {
      metricListeners.current.delete(l);
      if (metricKeys.current.remove(keys)) socketRef.current?.emit('nodelet:metrics:subscribe', { keys: metricKeys.current.keys() });
    };
  }, []);

  const requestProbeRuns = useCallback(() => {
    if (probeRuns.current.add([EVERY_RUN])) socketRef.current?.emit('nodelet:probes', { everyRun: true });
    return () => {
      if (probeRuns.current.remove([EVERY_RUN])) socketRef.current?.emit('nodelet:probes', { everyRun: false });
    };
  }, []);

  const value = useMemo(
    () => ({ state, attempt, node, epoch, subscribe, watchMetrics, requestProbeRuns }),
    [state, attempt, node, epoch, subscribe, watchMetrics, requestProbeRuns],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

export function useLive(): LiveValue {
  const v = useContext(LiveContext);
  if (!v) throw new Error('useLive outside LiveProvider');
  return v;
}
