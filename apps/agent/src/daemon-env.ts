/**
 * The environment the daemons (agent, embedded runtime) are started with: libuv's thread pool at two threads
 * instead of four. Every pool thread that allocates gets a glibc malloc arena of its own; at 110 pods the four
 * arenas held ≈ 100 MiB of the agent's RSS (251 → 151 MiB with two threads; the runtime 177 → 108 MiB;
 * docs/performance.md). The pool serves async fs, dns.lookup and zlib; two is one per core of the machines
 * measured. It must be in the environment at exec: Node's ESM loader starts the pool while loading main.js,
 * before any code of ours runs. An explicit UV_THREADPOOL_SIZE wins.
 */
export const DAEMON_THREADPOOL_SIZE = '2';

export function daemonEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, UV_THREADPOOL_SIZE: env.UV_THREADPOOL_SIZE ?? DAEMON_THREADPOOL_SIZE };
}
