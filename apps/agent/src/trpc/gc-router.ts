/**
 * gc.*: image and container garbage collection controls. The mutations run the GC now (a request while one
 * runs joins it) and return what was removed and the bytes freed; they need an authenticated user (the
 * tRPC API is only served on the kubelet port, behind its authn/authz; anonymous callers are refused here too).
 */
import { TRPCError } from '@trpc/server';
import type { GcApi, GcPolicies, GcResult } from '@nodelet/core/eviction';
import type { KubeletApi } from '@nodelet/core/kubelet';
import { publicProcedure, router } from './trpc.ts';

export interface GcMutationResult {
  removed: string[];
  freedBytes: number;
  errors: string[];
  time: string;
}

const authenticated = publicProcedure.use(({ ctx, next }) => {
  if (ctx.user.name === 'system:anonymous' || ctx.user.groups.includes('system:unauthenticated')) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'garbage collection needs an authenticated user' });
  }
  return next();
});

function gcApi(kubelet: KubeletApi): GcApi {
  const api = kubelet.gc;
  if (!api) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'garbage collection is not available' });
  return api;
}

const out = (r: GcResult): GcMutationResult => ({ removed: r.removed, freedBytes: r.freedBytes, errors: r.errors, time: r.time });

export const gcRouter = router({
  /** Removes every unused image older than imageMinimumGCAge. */
  images: authenticated.mutation(async ({ ctx }): Promise<GcMutationResult> => out(await gcApi(ctx.kubelet).images())),
  /** Removes every dead container and sandbox the container GC policy allows. */
  containers: authenticated.mutation(async ({ ctx }): Promise<GcMutationResult> => out(await gcApi(ctx.kubelet).containers())),
  /** The last result of each GC (periodic, manual or eviction-triggered). */
  last: publicProcedure.query(({ ctx }): { images: GcResult | null; containers: GcResult | null } => {
    const l = ctx.kubelet.gc?.last() ?? {};
    return { images: l.images ?? null, containers: l.containers ?? null };
  }),
  policies: publicProcedure.query(({ ctx }): GcPolicies | null => ctx.kubelet.gc?.policies() ?? null),
});
