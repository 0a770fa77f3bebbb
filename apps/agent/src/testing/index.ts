/**
 * @nodelet/agent/testing: test helpers built on the agent, for tests outside it (tests/, bench/, e2e/ and the
 * console's tests and mock agent in apps/web, which run against the agent's real router and token check).
 */
export { appRouter } from '../trpc/router.ts';
export { CONSOLE_USER, consoleTokenMatcher } from '../auth/console-token.ts';
export type { Authorizer, BearerAuthenticator } from '../servers/auth.ts';
export { eventMatches } from '@nodelet/core/events';
export { FakeKubelet, fakePod } from './fake-kubelet.ts';
export { FakeStats } from './fake-stats.ts';
export { startTestServer, type TestServer } from './test-server.ts';
export { staticPodYaml } from './api-node.ts';
export { cgroupRoots, removeCgroupTree } from './cgroups.ts';
export { stopRuntimeOf } from './processes.ts';
export { daemonEnv, daemonNodeArgs } from '../daemon-env.ts';
export { doRequest, openStream, type SimpleResponse, type TlsClientOptions } from './https-client.ts';
export { killContainerd, startContainerd } from './containerd-daemon.ts';
export { FlightRecorder } from '../recorder/recorder.ts';
export { loadSqlite } from '../recorder/store.ts';
