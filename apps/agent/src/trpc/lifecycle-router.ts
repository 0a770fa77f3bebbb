/**
 * lifecycle.onEvent: every bus event matching the filter, live, as tracked(String(seq), event) so that a client
 * reconnecting with lastEventId first receives what it missed (from the bus's recent ring). The hub's event feed,
 * the same one socket.io's `nodelet:event` carries.
 */
import { z } from 'zod';
import { anyEvent, trackedEvents } from './feed.ts';
import { eventFilterSchema } from './schemas.ts';
import { publicProcedure, router } from './trpc.ts';

export const lifecycleRouter = router({
  onEvent: publicProcedure
    .input(eventFilterSchema.extend({ lastEventId: z.string().nullish() }).optional())
    .subscription(({ ctx, input, signal }) => {
      const { lastEventId, ...filter } = input ?? {};
      return trackedEvents(ctx.streams, signal, filter, { lastEventId, only: anyEvent });
    }),
});
