/**
 * stats.*: machine info, cgroup status, the tracked container list and tree, a container's sample history,
 * a pod's Summary stats, processes, and `onSample` — live samples of the given keys at the watch rate,
 * reference-counted in the kubelet (nothing nobody watches is sampled fast): the hub's metrics feed, as socket.io's
 * `nodelet:metrics`.
 */
import type { CgroupStatus, ProcessInfo, StatsContainer } from '@nodelet/core/kubelet';
import type { PodStats, Summary, ContainerSample, MachineInfo } from '@nodelet/core/stats';
import type { OomEvent } from '@nodelet/core/oom';
import { z } from 'zod';
import type { MetricsMessage } from '../streams/types.ts';
import { feed } from './feed.ts';
import { publicProcedure, router } from './trpc.ts';

export interface StatsTreeNode extends StatsContainer {
  children: StatsTreeNode[];
}

/** Nests the flat list by parent key (the node at the root). */
export function containerTree(list: StatsContainer[]): StatsTreeNode | null {
  const nodes = new Map(list.map((c) => [c.key, { ...c, children: [] as StatsTreeNode[] }]));
  const root = nodes.get('/');
  if (!root) return null;
  for (const n of nodes.values()) {
    if (n.key === '/') continue;
    let parent = n.parent;
    while (parent !== undefined && !nodes.has(parent)) parent = parent.lastIndexOf('/') <= 0 ? '/' : parent.slice(0, parent.lastIndexOf('/'));
    (nodes.get(parent ?? '/') ?? root).children.push(n);
  }
  return root;
}

const key = z.string().min(1).max(4096);

export const statsRouter = router({
  machine: publicProcedure.query(({ ctx }): MachineInfo | null => ctx.kubelet.stats?.machineInfo() ?? null),
  cgroups: publicProcedure.query(({ ctx }): CgroupStatus | null => ctx.kubelet.stats?.cgroups() ?? null),
  ooms: publicProcedure.query(({ ctx }): OomEvent[] => ctx.kubelet.stats?.ooms() ?? []),
  containers: publicProcedure.query(({ ctx }): StatsContainer[] => ctx.kubelet.stats?.containers() ?? []),
  tree: publicProcedure.query(({ ctx }): StatsTreeNode | null => containerTree(ctx.kubelet.stats?.containers() ?? [])),
  history: publicProcedure
    .input(z.object({ key, sinceMs: z.number().optional(), limit: z.number().int().min(1).max(10_000).optional() }))
    .query(({ ctx, input }): ContainerSample[] => ctx.kubelet.stats?.history(input.key, input.sinceMs, input.limit) ?? []),
  pod: publicProcedure
    .input(z.object({ namespace: z.string(), name: z.string() }))
    .query(async ({ ctx, input }): Promise<PodStats | null> => (await ctx.kubelet.stats?.podStats(input.namespace, input.name)) ?? null),
  summary: publicProcedure
    .input(z.object({ onlyCpuAndMemory: z.boolean().optional() }).optional())
    .query(async ({ ctx, input }): Promise<Summary | null> => (await ctx.kubelet.stats?.summary(input ?? {})) ?? null),
  processes: publicProcedure
    .input(z.object({ key: key.optional() }).optional())
    .query(async ({ ctx, input }): Promise<ProcessInfo[]> => (await ctx.kubelet.stats?.processes(input?.key)) ?? []),
  onSample: publicProcedure
    .input(z.object({ keys: z.array(key).min(1).max(64) }))
    .subscription(({ ctx, input, signal }) =>
      feed<MetricsMessage>(signal, (push) => {
        const releases = [...new Set(input.keys)].map((k) => ctx.streams.metrics(k, push));
        const releaseAll = () => {
          for (const r of releases) r?.();
        };
        if (releases.every(Boolean)) return releaseAll;
        releaseAll(); // no stats: the subscription ends
        return undefined;
      }, 256),
    ),
});
