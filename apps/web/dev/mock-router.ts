/**
 * The mock agent's tRPC router: the same procedures, inputs and outputs as the agent's AppRouter
 * (apps/agent/src/trpc/router.ts), backed by a MockWorld. Only `import type` of this file may appear in src/.
 */
import { initTRPC, tracked } from '@trpc/server';
import { z } from 'zod';
import type { V1Pod } from '@kubernetes/client-node';
import type { K8sBusEvent, NodeletEvent, ProbeBusEvent } from '@nodelet/agent/types';
import type { MockWorld } from './mock-world.ts';
import { mockResources } from './mock-resources.ts';
import type { MockProbes } from './mock-probes.ts';
import type { MockStats } from './mock-stats.ts';
import type { MockPressure } from './mock-pressure.ts';
import type { MockNodeExtras } from './mock-node-extras.ts';

export interface MockParts {
  probes: MockProbes;
  stats: MockStats;
  pressure: MockPressure;
  extras: MockNodeExtras;
}

const podFilter = z.object({ namespace: z.string().optional(), pod: z.string().optional() });
const statsKey = z.string().min(1).max(4096);

const t = initTRPC.create();

const eventTypes = z.enum(['pleg', 'podStatus', 'podConfig', 'probe', 'k8sEvent', 'runtime', 'pressure', 'gc', 'decision', 'device', 'shutdown']);
const eventFilter = z.object({
  namespace: z.string().optional(),
  pod: z.string().optional(),
  types: z.array(eventTypes).optional(),
  afterSeq: z.number().optional(),
});

export function createMockRouter(world: MockWorld, parts: MockParts) {
  const { probes, stats, pressure, extras } = parts;
  return t.router({
    pods: t.router({
      list: t.procedure
        .input(z.object({ namespace: z.string().optional() }).optional())
        .query(({ input }): V1Pod[] => world.pods().filter((p) => !input?.namespace || p.metadata?.namespace === input.namespace)),
      get: t.procedure
        .input(z.object({ namespace: z.string(), name: z.string() }))
        .query(({ input }): { pod: V1Pod; events: K8sBusEvent[] } | null => {
          const pod = world.pods().find((p) => p.metadata?.namespace === input.namespace && p.metadata?.name === input.name);
          if (!pod) return null;
          const events = world.recent({ ...input, pod: input.name, types: ['k8sEvent'] }, 50) as K8sBusEvent[];
          return { pod, events };
        }),
    }),
    node: t.router({
      get: t.procedure.query(() => world.node()),
    }),
    events: t.router({
      recent: t.procedure
        .input(eventFilter.extend({ limit: z.number().optional() }).optional())
        .query(({ input }): NodeletEvent[] => world.recent(input ?? {}, input?.limit ?? 200)),
    }),
    probes: t.router({
      list: t.procedure.input(podFilter.optional()).query(({ input }) => probes.list(input)),
      recent: t.procedure
        .input(podFilter.extend({ limit: z.number().int().min(1).max(5000).optional() }).optional())
        .query(({ input }): ProbeBusEvent[] => world.recent({ ...(input ?? {}), types: ['probe'] }, input?.limit ?? 200).filter((e): e is ProbeBusEvent => e.type === 'probe')),
    }),
    stats: t.router({
      machine: t.procedure.query(() => stats.machine()),
      cgroups: t.procedure.query(() => stats.cgroups()),
      containers: t.procedure.query(() => stats.containers()),
      history: t.procedure
        .input(z.object({ key: statsKey, sinceMs: z.number().optional(), limit: z.number().int().min(1).max(10_000).optional() }))
        .query(({ input }) => stats.history(input.key, input.sinceMs, input.limit)),
      pod: t.procedure.input(z.object({ namespace: z.string(), name: z.string() })).query(({ input }) => stats.podStats(input.namespace, input.name)),
      summary: t.procedure.input(z.object({ onlyCpuAndMemory: z.boolean().optional() }).optional()).query(() => stats.summary()),
      processes: t.procedure.input(z.object({ key: statsKey.optional() }).optional()).query(({ input }) => stats.processes(input?.key)),
    }),
    eviction: t.router({
      state: t.procedure.query(() => pressure.state()),
      history: t.procedure.input(z.object({ sinceMs: z.number().optional() }).optional()).query(({ input }) => pressure.history(input?.sinceMs)),
    }),
    gc: t.router({
      images: t.procedure.mutation(() => pressure.gcImages()),
      containers: t.procedure.mutation(() => pressure.gcContainers()),
      last: t.procedure.query(() => pressure.gcLast()),
      policies: t.procedure.query(() => pressure.gcPolicies()),
    }),
    images: t.router({
      list: t.procedure.query(() => extras.images()),
      gcRunning: t.procedure.query(() => extras.gcRunning()),
    }),
    certificates: t.router({
      status: t.procedure.query(() => extras.certificates()),
    }),
    shutdown: t.router({
      progress: t.procedure.query(() => extras.shutdown()),
    }),
    resources: t.router({
      get: t.procedure.query(() => mockResources(world)),
    }),
    lifecycle: t.router({
      onEvent: t.procedure.input(eventFilter.extend({ lastEventId: z.string().nullish() }).optional()).subscription(async function* ({ input, signal }) {
        const queue: NodeletEvent[] = [];
        let wake: (() => void) | undefined;
        const off = world.subscribe((e) => { queue.push(e); wake?.(); });
        try {
          while (!signal?.aborted) {
            const e = queue.shift();
            if (!e) { await new Promise<void>((r) => { wake = r; signal?.addEventListener('abort', () => r(), { once: true }); }); continue; }
            if (matchesInput(e, input ?? {})) yield tracked(String(e.seq), e);
          }
        } finally {
          off();
        }
      }),
    }),
  });
}

function matchesInput(e: NodeletEvent, f: z.infer<typeof eventFilter>): boolean {
  if (f.types?.length && !f.types.includes(e.type)) return false;
  return true;
}

export type MockAppRouter = ReturnType<typeof createMockRouter>;
