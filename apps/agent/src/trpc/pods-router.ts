/** pods.list and pods.get: the pods GET /pods shows, with live status; get adds the pod's recent Events. */
import type { V1Pod } from '@kubernetes/client-node';
import type { K8sBusEvent } from '@nodelet/core/events';
import { z } from 'zod';
import { publicProcedure, router } from './trpc.ts';

export const podsRouter = router({
  list: publicProcedure
    .input(z.object({ namespace: z.string().optional() }).optional())
    .query(({ ctx, input }): V1Pod[] => {
      const pods = ctx.kubelet.getPods();
      return input?.namespace ? pods.filter((p) => p.metadata?.namespace === input.namespace) : pods;
    }),
  get: publicProcedure
    .input(z.object({ namespace: z.string(), name: z.string() }))
    .query(({ ctx, input }): { pod: V1Pod; events: K8sBusEvent[] } | null => {
      const pod = ctx.kubelet.getPod(input.namespace, input.name);
      if (!pod) return null;
      const events = ctx.kubelet.events
        .recent({ namespace: input.namespace, pod: input.name, types: ['k8sEvent'] }, 200)
        .filter((e): e is K8sBusEvent => e.type === 'k8sEvent');
      return { pod, events };
    }),
});
