/**
 * The agent's tRPC router type, imported as a TYPE only (nothing from the agent is bundled).
 * dev/mock-router.ts (MockAppRouter) has the same shape, for running the console without an agent.
 */
export type { AppRouter } from '@nodelet/agent/types';
