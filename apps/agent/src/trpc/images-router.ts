/**
 * images.*: the node's image inventory for the console's images page — every image with its size, tags, the pods
 * using it, when it was last used and whether the next image GC would remove it (the image GC manager's own
 * passes, run without removing) — and which GCs run now (the console's GC buttons stay disabled meanwhile).
 * Running an image GC is gc.images.
 */
import type { ImageInventory } from '@nodelet/core/eviction';
import { publicProcedure, router } from './trpc.ts';

export const imagesRouter = router({
  list: publicProcedure.query(async ({ ctx }): Promise<ImageInventory | null> => (await ctx.kubelet.gc?.imageInventory()) ?? null),
  gcRunning: publicProcedure.query(({ ctx }): { images: boolean; containers: boolean } => ctx.kubelet.gc?.running() ?? { images: false, containers: false }),
});
