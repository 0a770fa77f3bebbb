'use client';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import type { ContainerSample, StatsContainer } from '../../lib/api-types.ts';
import { useTRPC } from '../../lib/trpc.ts';
import { useLive } from '../live/live-provider.tsx';
import { mergeSamples, type Point } from './stats-math.ts';
import { withCpuPercent, type ProcessSample } from './process-model.ts';

/** The stats container list (cgroups the agent tracks), with the machine and cgroup facts. */
export function useStatsInventory() {
  const trpc = useTRPC();
  const containers = useQuery(trpc.stats.containers.queryOptions(undefined, { refetchInterval: 15_000 }));
  const machine = useQuery(trpc.stats.machine.queryOptions(undefined, { staleTime: 60_000 }));
  const cgroups = useQuery(trpc.stats.cgroups.queryOptions(undefined, { staleTime: 30_000 }));
  return { containers: containers.data, machine: machine.data, cgroups: cgroups.data, error: containers.error ?? machine.error, isPending: containers.isPending };
}

type SeriesState = { key: string; samples: ContainerSample[]; lastLiveAt: number };
type SeriesAction = { type: 'samples'; key: string; samples: ContainerSample[]; live: boolean; at: number };

function seriesReducer(s: SeriesState, a: SeriesAction): SeriesState {
  const base = a.key === s.key ? s : { key: a.key, samples: [], lastLiveAt: 0 };
  const samples = mergeSamples(base.samples, a.samples, SERIES_MAX);
  const lastLiveAt = a.live ? a.at : base.lastLiveAt;
  if (samples === base.samples && lastLiveAt === base.lastLiveAt && base === s) return s;
  return { key: a.key, samples, lastLiveAt };
}

const LIVE_STALE_MS = 35_000;
/** An hour of live samples at the 1 s watch rate (the longest chart window). */
const SERIES_MAX = 3_600;

/**
 * Samples of one stats key: the agent's history (ring buffer), then live `nodelet:metrics` samples while the
 * page is open (a reference-counted watch, released on unmount). When no live sample arrived for a while
 * (agent without the stream, reconnecting), the history is polled instead.
 */
export function useSampleSeries(key: string | undefined) {
  const trpc = useTRPC();
  const { watchMetrics } = useLive();
  const [state, dispatch] = useReducer(seriesReducer, { key: key ?? '', samples: [], lastLiveAt: 0 });
  const [now, setNow] = useState(() => Date.now());
  const live = now - state.lastLiveAt < LIVE_STALE_MS && state.key === key;
  const history = useQuery(
    trpc.stats.history.queryOptions({ key: key ?? '/', limit: 240 }, { enabled: key !== undefined, refetchInterval: live ? false : 10_000, staleTime: 0 }),
  );

  useEffect(() => {
    if (key !== undefined && history.data) dispatch({ type: 'samples', key, samples: history.data, live: false, at: Date.now() });
  }, [key, history.data]);

  useEffect(() => {
    if (key === undefined) return;
    return watchMetrics([key], (m) => {
      if (m.key === key) dispatch({ type: 'samples', key, samples: [m.sample], live: true, at: Date.now() });
    });
  }, [key, watchMetrics]);

  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(t);
  }, []);

  const samples = state.key === key ? state.samples : [];
  return { samples, live, error: history.error, isPending: history.isPending && key !== undefined };
}

/** The newest two samples of each child (for the subcontainers table's CPU and memory), polled. */
export function useChildSamples(children: readonly StatsContainer[]) {
  const trpc = useTRPC();
  const results = useQueries({
    queries: children.slice(0, 40).map((c) => trpc.stats.history.queryOptions({ key: c.key, limit: 2 }, { refetchInterval: 15_000 })),
  });
  const stamp = results.map((r) => r.dataUpdatedAt).join(',');
  return useMemo(() => {
    const m = new Map<string, ContainerSample[]>();
    children.slice(0, 40).forEach((c, i) => m.set(c.key, results[i]?.data ?? []));
    return m;
    // `results` is a new array every render; `stamp` changes exactly when some child's data does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [children, stamp]);
}

/** The processes of a stats key, polled; each poll's %CPU comes from it and the poll before (same key). */
export function useProcesses(key: string | undefined) {
  const trpc = useTRPC();
  const q = useQuery(trpc.stats.processes.queryOptions({ key }, { enabled: key !== undefined, refetchInterval: 5_000 }));
  const [state, setState] = useState<{ key?: string; prev?: ProcessSample; cur?: ProcessSample }>({});
  useEffect(() => {
    if (!q.data) return;
    const cur = { at: q.dataUpdatedAt, processes: q.data };
    setState((s) => (s.cur?.at === cur.at ? s : { key, prev: s.key === key ? s.cur : undefined, cur }));
  }, [q.data, q.dataUpdatedAt, key]);
  const rows = useMemo(() => (state.cur && state.key === key ? withCpuPercent(state.prev, state.cur) : undefined), [state, key]);
  return { data: rows, error: q.error };
}

/** Filesystem usage of a pod (ephemeral storage) or the node (nodefs), polled, kept as a client-side series. */
export function useFsSeries(pod: { namespace: string; name: string } | undefined, container: string | undefined, enabled: boolean) {
  const trpc = useTRPC();
  const podQ = useQuery(trpc.stats.pod.queryOptions(pod ?? { namespace: '', name: '' }, { enabled: enabled && !!pod, refetchInterval: 15_000 }));
  const nodeQ = useQuery(trpc.stats.summary.queryOptions({ onlyCpuAndMemory: false }, { enabled: enabled && !pod, refetchInterval: 30_000 }));
  const podStats = podQ.data ?? undefined;
  const fs = !pod ? nodeQ.data?.node.fs : container ? podStats?.containers.find((c) => c.name === container)?.rootfs : podStats?.['ephemeral-storage'];
  const [points, setPoints] = useState<Point[]>([]);
  useEffect(() => {
    const t = Date.parse(fs?.time ?? '');
    if (fs?.usedBytes === undefined || !Number.isFinite(t)) return;
    setPoints((old) => (old.some((p) => p.t === t) ? old : [...old, { t, v: fs.usedBytes! }].slice(-240)));
  }, [fs]);
  return { fs, points, podStats };
}
