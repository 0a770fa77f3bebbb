import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { DAEMON_MALLOC_ARENA_MAX, DAEMON_MAX_OLD_SPACE, DAEMON_NODE_OPTIONS, DAEMON_THREADPOOL_SIZE, daemonEnv, daemonNodeArgs } from './daemon-env.ts';
import { runtimeCommand } from './runtime-launcher.ts';

const repo = (p: string) => readFileSync(new URL(`../../../${p}`, import.meta.url), 'utf8');

it('daemons get two pool threads and 1 MiB semi-spaces unless the environment says otherwise', () => {
  assert.deepEqual(
    (({ UV_THREADPOOL_SIZE, NODE_OPTIONS }) => ({ UV_THREADPOOL_SIZE, NODE_OPTIONS }))(daemonEnv({ PATH: '/bin' })),
    { UV_THREADPOOL_SIZE: '2', NODE_OPTIONS: '--max-semi-space-size=1' },
  );
  const own = daemonEnv({ UV_THREADPOOL_SIZE: '4', NODE_OPTIONS: '--inspect --max-semi-space-size=8' });
  assert.equal(own.UV_THREADPOOL_SIZE, '4');
  assert.equal(own.NODE_OPTIONS, '--inspect --max-semi-space-size=8');
  assert.equal(daemonEnv({ NODE_OPTIONS: '--inspect=127.0.0.1:0' }).NODE_OPTIONS, '--inspect=127.0.0.1:0 --max-semi-space-size=1');
  assert.equal(daemonEnv(daemonEnv({})).NODE_OPTIONS, '--max-semi-space-size=1', 'applied twice (agent → runtime): once');
});

it('daemons get one malloc arena and a 512 MiB old generation on the command line unless NODE_OPTIONS sets one', () => {
  assert.equal(daemonEnv({ PATH: '/bin' }).MALLOC_ARENA_MAX, '1');
  assert.equal(daemonEnv({ MALLOC_ARENA_MAX: '4' }).MALLOC_ARENA_MAX, '4', 'an explicit setting wins');
  assert.deepEqual(daemonNodeArgs({}), ['--max-old-space-size=512']);
  assert.deepEqual(daemonNodeArgs({ NODE_OPTIONS: '--max-old-space-size=2048' }), [], 'an explicit setting wins');
  const rt = runtimeCommand({ dir: '/r', socket: '/r/s.sock', endpoint: 'unix:///r/s.sock', pidFile: '/r/p', logFile: '/r/l' });
  assert.equal(rt.args[0], '--max-old-space-size=512', 'node flags come before the script');
  const start = repo('scripts/start.mjs');
  assert.ok(start.includes("['--max-old-space-size=512']),\n    join(repoRoot, 'dist/agent/main.js')"), 'npm start');
  assert.ok(start.includes("MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '1'"), 'npm start');
});

it('npm start and npm run agent start the agent with the same settings', () => {
  const script = (JSON.parse(repo('package.json')) as { scripts: Record<string, string> }).scripts.agent ?? '';
  assert.match(script, new RegExp(`UV_THREADPOOL_SIZE=\\$\\{UV_THREADPOOL_SIZE:-${DAEMON_THREADPOOL_SIZE}\\}`));
  assert.ok(script.includes(DAEMON_NODE_OPTIONS), script);
  assert.match(script, new RegExp(`MALLOC_ARENA_MAX=\\$\\{MALLOC_ARENA_MAX:-${DAEMON_MALLOC_ARENA_MAX}\\}`));
  // In NODE_OPTIONS before the caller's own: a later --max-old-space-size there wins (the command line would not yield).
  assert.ok(script.includes(`NODE_OPTIONS=\"${DAEMON_NODE_OPTIONS} ${DAEMON_MAX_OLD_SPACE} ${'$'}{NODE_OPTIONS:-}\"`), script);
  const start = repo('scripts/start.mjs');
  assert.ok(start.includes(`UV_THREADPOOL_SIZE ?? '${DAEMON_THREADPOOL_SIZE}'`));
  assert.ok(start.includes(DAEMON_NODE_OPTIONS));
});
