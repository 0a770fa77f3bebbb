/** Input schemas shared by the routers. */
import { z } from 'zod';

export const eventTypeSchema = z.enum(['pleg', 'podStatus', 'podConfig', 'k8sEvent', 'runtime', 'probe', 'pressure', 'gc', 'decision', 'shutdown', 'device']);

export const eventFilterSchema = z.object({
  namespace: z.string().optional(),
  pod: z.string().optional(),
  types: z.array(eventTypeSchema).optional(),
  afterSeq: z.number().int().optional(),
});
