/**
 * probes.*: the probe table (one row per container and probe type, with its cached result and last run),
 * recent probe events, and a live subscription of probe events. `everyRun: true` asks the kubelet for every
 * run (rate-limited per worker) while the subscription lives; otherwise only result changes are streamed.
 */
import { tracked } from '@trpc/server';
import { eventMatches, type NodeletEvent, type ProbeBusEvent } from '@nodelet/core/events/types.ts';
import type { ProbeWorkerInfo } from '@nodelet/core/kubelet/types.ts';
import { z } from 'zod';
import { EventQueue } from './event-queue.ts';
import { publicProcedure, router } from './trpc.ts';

const podFilter = z.object({ namespace: z.string().optional(), pod: z.string().optional() });

const isProbe = (e: NodeletEvent): e is ProbeBusEvent => e.type === 'probe';

export const probesRouter = router({
  list: publicProcedure.input(podFilter.optional()).query(({ ctx, input }): ProbeWorkerInfo[] => ctx.kubelet.probes?.list(input) ?? []),
  recent: publicProcedure
    .input(podFilter.extend({ limit: z.number().int().min(1).max(5000).optional() }).optional())
    .query(({ ctx, input }): ProbeBusEvent[] =>
      ctx.kubelet.events.recent({ ...(input ?? {}), types: ['probe'] }, input?.limit ?? 200).filter(isProbe),
    ),
  onEvent: publicProcedure
    .input(podFilter.extend({ everyRun: z.boolean().optional(), lastEventId: z.string().nullish() }).optional())
    .subscription(async function* ({ ctx, input, signal }) {
      const { lastEventId, everyRun, ...pods } = input ?? {};
      const filter = { ...pods, types: ['probe' as const] };
      const queue = new EventQueue<ProbeBusEvent>();
      const unsubscribe = ctx.kubelet.events.subscribe((e) => {
        if (isProbe(e) && eventMatches(e, filter)) queue.push(e);
      });
      const release = everyRun ? ctx.kubelet.probes?.requestEveryRun() : undefined;
      try {
        let lastSeq = lastEventId ? Number(lastEventId) : undefined;
        if (lastSeq !== undefined && Number.isFinite(lastSeq)) {
          for (const e of ctx.kubelet.events.recent({ ...filter, afterSeq: lastSeq }, 5000).filter(isProbe)) {
            lastSeq = e.seq;
            yield tracked(String(e.seq), e);
          }
        }
        for await (const e of queue.drain(signal)) {
          if (lastSeq !== undefined && e.seq <= lastSeq) continue;
          yield tracked(String(e.seq), e);
        }
      } finally {
        release?.();
        unsubscribe();
      }
    }),
});
