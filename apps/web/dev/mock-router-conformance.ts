/**
 * Compile-time check that the mock router stays faithful to the agent's AppRouter: every output of the mock
 * fits the agent's output type, and every input the console may send to the agent is accepted by the mock.
 * Type-only; `tsc -p apps/web` (and `next build`) fails when they drift apart.
 */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@nodelet/agent/trpc/router.ts';
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
];
