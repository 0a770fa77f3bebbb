/** The console API: one router per domain. Clients import `type AppRouter` only. */
import { certificatesRouter } from './certificates-router.ts';
import { eventsRouter } from './events-router.ts';
import { evictionRouter } from './eviction-router.ts';
import { gcRouter } from './gc-router.ts';
import { imagesRouter } from './images-router.ts';
import { lifecycleRouter } from './lifecycle-router.ts';
import { nodeRouter } from './node-router.ts';
import { podsRouter } from './pods-router.ts';
import { probesRouter } from './probes.ts';
import { recorderRouter } from './recorder-router.ts';
import { resourcesRouter } from './resources-router.ts';
import { shutdownRouter } from './shutdown-router.ts';
import { statsRouter } from './stats-router.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  pods: podsRouter,
  node: nodeRouter,
  events: eventsRouter,
  lifecycle: lifecycleRouter,
  probes: probesRouter,
  stats: statsRouter,
  eviction: evictionRouter,
  gc: gcRouter,
  images: imagesRouter,
  recorder: recorderRouter,
  resources: resourcesRouter,
  certificates: certificatesRouter,
  shutdown: shutdownRouter,
});

export type AppRouter = typeof appRouter;
