/**
 * The mock agent's tRPC router: the same procedures, inputs and outputs as the agent's AppRouter
 * (see /tmp/contracts.md), backed by a MockWorld. Only `import type` of this file may appear in src/.
 */
import { initTRPC, tracked } from '@trpc/server';
import { z } from 'zod';
import type { V1Pod } from '@kubernetes/client-node';
import type { K8sBusEvent, NodeletEvent } from '@nodelet/core/events/types.ts';
import type { MockWorld } from './mock-world.ts';

const t = initTRPC.create();

const eventTypes = z.enum(['pleg', 'podStatus', 'podConfig', 'probe', 'k8sEvent', 'runtime']);
const eventFilter = z.object({
  namespace: z.string().optional(),
  pod: z.string().optional(),
  types: z.array(eventTypes).optional(),
  afterSeq: z.number().optional(),
});

export function createMockRouter(world: MockWorld) {
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
