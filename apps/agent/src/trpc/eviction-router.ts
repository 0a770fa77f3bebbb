/**
 * eviction.*: node pressure as the eviction manager sees it — conditions, each signal's observation against
 * its thresholds (with soft grace-period countdowns), the evictions so far, and the signal history; `onState`
 * streams the state after every manager pass (10 s), from the hub's pressure feed.
 */
import type { PressureSample, PressureState } from '@nodelet/core/eviction';
import { z } from 'zod';
import { feed } from './feed.ts';
import { publicProcedure, router } from './trpc.ts';

export const evictionRouter = router({
  /** Conditions, signals with thresholds and observations, evictions (null when the kubelet has no eviction manager). */
  state: publicProcedure.query(({ ctx }): PressureState | null => ctx.kubelet.eviction?.state() ?? null),
  /** Signal samples oldest first (one per pass; an hour at 10 s). */
  history: publicProcedure
    .input(z.object({ sinceMs: z.number().optional() }).optional())
    .query(({ ctx, input }): PressureSample[] => ctx.kubelet.eviction?.history(input?.sinceMs) ?? []),
  /** The state now, then after every pass. */
  onState: publicProcedure.subscription(({ ctx, signal }) => feed<PressureState>(signal, (push) => ctx.streams.pressure(push))),
});
