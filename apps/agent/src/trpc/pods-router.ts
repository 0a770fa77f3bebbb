/**
 * pods.list and pods.get: the pods GET /pods shows, with live status (each row not Running and Ready carries its
 * `why`); get adds the pod's recent Events; pods.why: the plain explanation of one pod (null when it runs ready).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { K8sBusEvent, PodWhy } from '@nodelet/core/events';
import { z } from 'zod';
import { podsWithWhy, podWhy, type PodWithWhy } from './pod-why.ts';
import { publicProcedure, router } from './trpc.ts';

export const podsRouter = router({
  list: publicProcedure
    .input(z.object({ namespace: z.string().optional() }).optional())
    .query(({ ctx, input }): PodWithWhy[] => {
      const pods = ctx.kubelet.getPods();
      return podsWithWhy(ctx.kubelet, input?.namespace ? pods.filter((p) => p.metadata?.namespace === input.namespace) : pods, Date.now(), ctx.recorder);
    }),
  why: publicProcedure
    .input(z.object({ namespace: z.string(), name: z.string() }))
    .query(({ ctx, input }): PodWhy | null => {
      const pod = ctx.kubelet.getPod(input.namespace, input.name);
      return pod ? (podWhy(ctx.kubelet, pod, Date.now(), ctx.recorder) ?? null) : null;
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
