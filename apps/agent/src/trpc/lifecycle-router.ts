/**
 * lifecycle.onEvent: every bus event matching the filter, live, as tracked(String(seq), event) so that a client
 * reconnecting with lastEventId first receives what it missed (from the bus's recent ring).
 */
import { tracked } from '@trpc/server';
import { eventMatches, type NodeletEvent } from '@nodelet/core/events/types.ts';
import { z } from 'zod';
import { EventQueue } from './event-queue.ts';
import { eventFilterSchema } from './schemas.ts';
import { publicProcedure, router } from './trpc.ts';

export const lifecycleRouter = router({
  onEvent: publicProcedure
    .input(eventFilterSchema.extend({ lastEventId: z.string().nullish() }).optional())
    .subscription(async function* ({ ctx, input, signal }) {
      const { lastEventId, ...filter } = input ?? {};
      const queue = new EventQueue<NodeletEvent>();
      const unsubscribe = ctx.kubelet.events.subscribe((e) => {
        if (eventMatches(e, filter)) queue.push(e);
      });
      try {
        let lastSeq = lastEventId ? Number(lastEventId) : undefined;
        if (lastSeq !== undefined && Number.isFinite(lastSeq)) {
          for (const e of ctx.kubelet.events.recent({ ...filter, afterSeq: lastSeq }, 5000)) {
            lastSeq = e.seq;
            yield tracked(String(e.seq), e);
          }
        }
        for await (const e of queue.drain(signal)) {
          if (lastSeq !== undefined && e.seq <= lastSeq) continue;
          yield tracked(String(e.seq), e);
        }
      } finally {
        unsubscribe();
      }
    }),
});
