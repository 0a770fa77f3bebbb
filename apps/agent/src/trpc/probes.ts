/**
 * probes.*: the probe table (one row per container and probe type, with its cached result and last run),
 * recent probe events, and a live subscription of probe events. `everyRun: true` asks the kubelet for every
 * run (rate-limited per worker) while the subscription lives; otherwise only result changes are streamed.
 * onEvent is the hub's event feed (probe events only), as socket.io's `nodelet:event` + `nodelet:probes`.
 */
import type { NodeletEvent, ProbeBusEvent } from '@nodelet/core/events';
import type { ProbeWorkerInfo } from '@nodelet/core/kubelet';
import { z } from 'zod';
import { trackedEvents } from './feed.ts';
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
    .subscription(({ ctx, input, signal }) => {
      const { lastEventId, everyRun, ...pods } = input ?? {};
      const hold = everyRun ? () => ctx.streams.probeRuns() : undefined;
      return trackedEvents(ctx.streams, signal, { ...pods, types: ['probe'] }, { lastEventId, only: isProbe, ...(hold ? { hold } : {}) });
    }),
});
