/**
 * The environment the daemons (agent, embedded runtime) are started with. These settings must be in the environment
 * at exec (Node reads them before any code of ours runs); an explicit setting in the environment wins.
 * - `UV_THREADPOOL_SIZE=2`: libuv's thread pool at two threads instead of four. Every pool thread that allocates gets
 *   a glibc malloc arena of its own; at 110 pods the four arenas held ≈ 100 MiB of the agent's RSS (251 → 151 MiB
 *   with two threads; the runtime 177 → 108 MiB). The pool serves async fs, dns.lookup and zlib; two is one per core
 *   of the machines measured.
 * - `--max-semi-space-size=1` (NODE_OPTIONS): V8's young generation grows to 16 MiB semi-spaces (three of them
 *   committed) under the allocation rate of 110 pods' housekeeping and CRI traffic and keeps them; 1 MiB holds the
 *   short-lived garbage of a sample or a sync as well. At 110 pods the agent 155 → 112 MiB and the runtime
 *   108 → 75 MiB, the agent's CPU the same (4.41 % both; docs/performance.md).
 * - `MALLOC_ARENA_MAX=1`: one glibc arena for every thread. The pool threads and V8's workers each grew an arena of
 *   their own in a 110-pod start (≈ 6 MiB of the agent's RSS that stayed at steady state); their allocations are few.
 * `daemonNodeArgs()` go on the command line of the daemons this code spawns (npm start, the runtime launcher, the harness):
 * - `--max-old-space-size=512`: V8 lets the old generation grow by up to 4× its live size between full collections
 *   when the heap may reach gigabytes (the default here), by at most ≈ 1.4× at 512 MiB (heap-controller.cc,
 *   MaxGrowingFactor). At 110 pods the agent keeps ≈ 30 MiB live and its heap pages grew to twice that under a loaded
 *   machine's slow collections; 512 MiB is 16× the live heap.
 *   An explicit `--max-old-space-size` in NODE_OPTIONS wins.
 * `npm start` (scripts/start.mjs) and `npm run agent` (package.json, the old-space limit in NODE_OPTIONS) set the same;
 * daemon-env.test.ts holds them to it.
 */
export const DAEMON_THREADPOOL_SIZE = '2';
export const DAEMON_NODE_OPTIONS = '--max-semi-space-size=1';
export const DAEMON_MALLOC_ARENA_MAX = '1';
export const DAEMON_MAX_OLD_SPACE = '--max-old-space-size=512';

/** Node flags for a daemon's command line, before its script. */
export function daemonNodeArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  return /--max-old-space-size\b/.test(env.NODE_OPTIONS ?? '') ? [] : [DAEMON_MAX_OLD_SPACE];
}

export function daemonEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const nodeOptions = /--max-semi-space-size\b/.test(env.NODE_OPTIONS ?? '') ? env.NODE_OPTIONS : `${env.NODE_OPTIONS ?? ''} ${DAEMON_NODE_OPTIONS}`.trim();
  return {
    ...env,
    UV_THREADPOOL_SIZE: env.UV_THREADPOOL_SIZE ?? DAEMON_THREADPOOL_SIZE,
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? DAEMON_MALLOC_ARENA_MAX,
    NODE_OPTIONS: nodeOptions,
  };
}
