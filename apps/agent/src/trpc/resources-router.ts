/**
 * resources.*: the node's CPUs, memory per NUMA node and device plugin devices as the resource managers hand them
 * out (the console's Resources page). Changes reach the console as bus events (`device`, pod and container
 * events), after which it asks again.
 */
import { nodeResourcesView, type NodeResourcesView } from '@nodelet/core/cm';
import { publicProcedure, router } from './trpc.ts';

export const resourcesRouter = router({
  /** The current view; a kubelet without resource managers (a fake) answers the default policies and no devices. */
  get: publicProcedure.query(({ ctx }): NodeResourcesView => ctx.kubelet.resources?.view() ?? nodeResourcesView({ pod: () => undefined })),
});
