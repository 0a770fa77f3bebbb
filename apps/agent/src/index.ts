/** @nodelet/agent: the daemon. Clients (apps/web) import @nodelet/agent/types only; test helpers: @nodelet/agent/testing. */
export { SOCKET_PATH } from './streams/types.ts';
export { createAgent, type Agent, type AgentDeps, type AgentPorts } from './agent.ts';
export type { AgentConfig } from './config/types.ts';
export { loadConfig } from './config/load-config.ts';
export { probeEndpoint } from './runtime-launcher.ts';
