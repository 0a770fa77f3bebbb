/** node.get: the node summary plus the health report behind /healthz. */
import type { HealthReport, NodeSummary } from '@nodelet/core/kubelet';
import { publicProcedure, router } from './trpc.ts';

export const nodeRouter = router({
  get: publicProcedure.query(({ ctx }): NodeSummary & { health: HealthReport } => ({
    ...ctx.kubelet.node(),
    health: ctx.health ? ctx.health() : ctx.kubelet.healthz(),
  })),
});
