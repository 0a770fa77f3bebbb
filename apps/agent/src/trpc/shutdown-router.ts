/**
 * shutdown.*: the graceful node shutdown's progress (the node shutdown manager's groups; once a shutdown began,
 * each group's pods with their grace period and where their kill is). `progress` is null when the node has no
 * shutdown manager (shutdownGracePeriod unset). `onProgress` streams every change from the event hub, the same
 * `shutdown` bus events socket.io's `nodelet:event` carries (tracked by seq: a reconnecting client gets what it missed).
 */
import type { ShutdownBusEvent, ShutdownProgress } from '@nodelet/core/events';
import { z } from 'zod';
import { trackedEvents } from './feed.ts';
import { publicProcedure, router } from './trpc.ts';

export const shutdownRouter = router({
  progress: publicProcedure.query(({ ctx }): ShutdownProgress | null => ctx.kubelet.nodeShutdown?.progress() ?? null),
  onProgress: publicProcedure
    .input(z.object({ lastEventId: z.string().nullish() }).optional())
    .subscription(({ ctx, input, signal }) =>
      trackedEvents(ctx.streams, signal, { types: ['shutdown'] }, { lastEventId: input?.lastEventId, only: (e): e is ShutdownBusEvent => e.type === 'shutdown' }),
    ),
});
