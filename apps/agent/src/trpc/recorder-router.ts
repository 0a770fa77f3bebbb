/**
 * recorder.*: the flight recorder over tRPC. `query` answers one page (capped at MAX_PAGE, with a cursor for the
 * next) of a time range, pod and kinds; bad input (an inverted range, an unreadable time or cursor) is BAD_REQUEST
 * with the reason. `onEntry` replays the newest rows since `from`, then every new or grown row (the hub's feed,
 * the one socket.io's `nodelet:recorder` carries; a span keeps its id as it grows: upsert by id). `stats` is the
 * store's size.
 */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { FlightRecorderApi, RecorderEntry, RecorderPage, RecorderStats } from '../recorder/types.ts';
import { RECORDER_KINDS, RecorderQueryError } from '../recorder/types.ts';
import { feed } from './feed.ts';
import { publicProcedure, router } from './trpc.ts';

const time = z.union([
  z.string().max(64).refine((s) => /^-?\d+$/.test(s.trim()) || Number.isFinite(Date.parse(s)), 'not a time (an RFC 3339 time or milliseconds since the epoch)'),
  z.number().finite(),
]);
export const recorderFollowSchema = z.object({
  from: time.optional(),
  podUID: z.string().max(128).optional(),
  kinds: z.array(z.enum(RECORDER_KINDS)).max(RECORDER_KINDS.length).optional(),
});
export const recorderQuerySchema = recorderFollowSchema.extend({
  to: time.optional(),
  limit: z.number().int().min(1).optional(),
  cursor: z.string().max(64).optional(),
  order: z.enum(['asc', 'desc']).optional(),
});

function recorderOf(r: FlightRecorderApi | undefined): FlightRecorderApi {
  if (!r) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'the flight recorder is off on this node' });
  return r;
}

function badInput<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof RecorderQueryError) throw new TRPCError({ code: 'BAD_REQUEST', message: err.message });
    throw err;
  }
}

export const recorderRouter = router({
  query: publicProcedure.input(recorderQuerySchema).query(({ ctx, input }): RecorderPage => {
    const r = recorderOf(ctx.recorder);
    return badInput(() => r.query(input));
  }),
  stats: publicProcedure.query(({ ctx }): RecorderStats => recorderOf(ctx.recorder).stats()),
  onEntry: publicProcedure.input(recorderFollowSchema.optional()).subscription(({ ctx, input, signal }) => {
    recorderOf(ctx.recorder);
    return feed<RecorderEntry>(signal, (push) => ctx.streams.records?.(input ?? {}, push));
  }),
});
