/** @nodelet/agent: the daemon. Clients (apps/web) import types only. */
export type { AppRouter } from './trpc/router.ts';
export type { ClientToServerEvents, HelloPayload, ServerToClientEvents } from './streams/types.ts';
export { SOCKET_PATH } from './streams/types.ts';
export { createAgent, type Agent, type AgentDeps, type AgentPorts } from './agent.ts';
export type { AgentConfig } from './config/types.ts';
export { loadConfig } from './config/load-config.ts';
