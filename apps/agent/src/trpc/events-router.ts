/** events.recent: the bus's recent events, oldest first. */
import type { NodeletEvent } from '@nodelet/core/events';
import { z } from 'zod';
import { eventFilterSchema } from './schemas.ts';
import { publicProcedure, router } from './trpc.ts';

export const eventsRouter = router({
  recent: publicProcedure
    .input(eventFilterSchema.extend({ limit: z.number().int().min(1).max(5000).optional() }).optional())
    .query(({ ctx, input }): NodeletEvent[] => {
      const { limit, ...filter } = input ?? {};
      return ctx.kubelet.events.recent(filter, limit ?? 200);
    }),
});
