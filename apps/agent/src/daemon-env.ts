/**
 * The environment the daemons (agent, embedded runtime) are started with. Both settings must be in the environment
 * at exec (Node reads them before any code of ours runs); an explicit setting in the environment wins.
 * - `UV_THREADPOOL_SIZE=2`: libuv's thread pool at two threads instead of four. Every pool thread that allocates gets
 *   a glibc malloc arena of its own; at 110 pods the four arenas held ≈ 100 MiB of the agent's RSS (251 → 151 MiB
 *   with two threads; the runtime 177 → 108 MiB). The pool serves async fs, dns.lookup and zlib; two is one per core
 *   of the machines measured.
 * - `--max-semi-space-size=1` (NODE_OPTIONS): V8's young generation grows to 16 MiB semi-spaces (three of them
 *   committed) under the allocation rate of 110 pods' housekeeping and CRI traffic and keeps them; 1 MiB holds the
 *   short-lived garbage of a sample or a sync as well. At 110 pods the agent 155 → 112 MiB and the runtime
 *   108 → 75 MiB, the agent's CPU the same (4.41 % both; docs/performance.md).
 * `npm start` (scripts/start.mjs) and `npm run agent` (package.json) set the same; daemon-env.test.ts holds them to it.
 */
export const DAEMON_THREADPOOL_SIZE = '2';
export const DAEMON_NODE_OPTIONS = '--max-semi-space-size=1';

export function daemonEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const nodeOptions = /--max-semi-space-size\b/.test(env.NODE_OPTIONS ?? '') ? env.NODE_OPTIONS : `${env.NODE_OPTIONS ?? ''} ${DAEMON_NODE_OPTIONS}`.trim();
  return { ...env, UV_THREADPOOL_SIZE: env.UV_THREADPOOL_SIZE ?? DAEMON_THREADPOOL_SIZE, NODE_OPTIONS: nodeOptions };
}
