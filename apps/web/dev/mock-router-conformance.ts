/**
 * Compile-time check that the mock router stays faithful to the agent's AppRouter: every output of the mock
 * fits the agent's output type, and every input the console may send to the agent is accepted by the mock.
 * Type-only; `tsc -p apps/web` (and `next build`) fails when they drift apart.
 */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@nodelet/agent/types';
import type { MockAppRouter } from './mock-router.ts';

type AO = inferRouterOutputs<AppRouter>;
type MO = inferRouterOutputs<MockAppRouter>;
type AI = inferRouterInputs<AppRouter>;
type MI = inferRouterInputs<MockAppRouter>;
type Fits<X, Y> = [X] extends [Y] ? true : false;
type Assert<T extends true> = T;

export type MockConformance = [
  Assert<Fits<MO['pods']['list'], AO['pods']['list']>>,
  Assert<Fits<MO['pods']['get'], AO['pods']['get']>>,
  Assert<Fits<MO['node']['get'], AO['node']['get']>>,
  Assert<Fits<MO['events']['recent'], AO['events']['recent']>>,
  Assert<Fits<AI['pods']['list'], MI['pods']['list']>>,
  Assert<Fits<AI['pods']['get'], MI['pods']['get']>>,
  Assert<Fits<AI['events']['recent'], MI['events']['recent']>>,
  Assert<Fits<AI['lifecycle']['onEvent'], MI['lifecycle']['onEvent']>>,
  // probes (issue 4)
  Assert<Fits<MO['probes']['list'], AO['probes']['list']>>,
  Assert<Fits<MO['probes']['recent'], AO['probes']['recent']>>,
  Assert<Fits<AI['probes']['list'], MI['probes']['list']>>,
  Assert<Fits<AI['probes']['recent'], MI['probes']['recent']>>,
  // stats (issue 5)
  Assert<Fits<MO['stats']['machine'], AO['stats']['machine']>>,
  Assert<Fits<MO['stats']['cgroups'], AO['stats']['cgroups']>>,
  Assert<Fits<MO['stats']['containers'], AO['stats']['containers']>>,
  Assert<Fits<MO['stats']['history'], AO['stats']['history']>>,
  Assert<Fits<MO['stats']['pod'], AO['stats']['pod']>>,
  Assert<Fits<MO['stats']['summary'], AO['stats']['summary']>>,
  Assert<Fits<MO['stats']['processes'], AO['stats']['processes']>>,
  Assert<Fits<AI['stats']['history'], MI['stats']['history']>>,
  Assert<Fits<AI['stats']['pod'], MI['stats']['pod']>>,
  Assert<Fits<AI['stats']['summary'], MI['stats']['summary']>>,
  Assert<Fits<AI['stats']['processes'], MI['stats']['processes']>>,
  // eviction and GC (issue 7)
  Assert<Fits<MO['eviction']['state'], AO['eviction']['state']>>,
  Assert<Fits<MO['eviction']['history'], AO['eviction']['history']>>,
  Assert<Fits<AI['eviction']['history'], MI['eviction']['history']>>,
  Assert<Fits<MO['gc']['images'], AO['gc']['images']>>,
  Assert<Fits<MO['gc']['containers'], AO['gc']['containers']>>,
  Assert<Fits<MO['gc']['last'], AO['gc']['last']>>,
  Assert<Fits<MO['gc']['policies'], AO['gc']['policies']>>,
  // resources (issue 17)
  Assert<Fits<MO['resources']['get'], AO['resources']['get']>>,
  // images (issue 16), certificates and graceful shutdown (issue 18)
  Assert<Fits<MO['images']['list'], AO['images']['list']>>,
  Assert<Fits<MO['images']['gcRunning'], AO['images']['gcRunning']>>,
  Assert<Fits<MO['certificates']['status'], AO['certificates']['status']>>,
  Assert<Fits<MO['shutdown']['progress'], AO['shutdown']['progress']>>,
];
