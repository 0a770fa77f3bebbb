import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { DAEMON_NODE_OPTIONS, DAEMON_THREADPOOL_SIZE, daemonEnv } from './daemon-env.ts';

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

it('npm start and npm run agent start the agent with the same settings', () => {
  const script = (JSON.parse(repo('package.json')) as { scripts: Record<string, string> }).scripts.agent ?? '';
  assert.match(script, new RegExp(`UV_THREADPOOL_SIZE=\\$\\{UV_THREADPOOL_SIZE:-${DAEMON_THREADPOOL_SIZE}\\}`));
  assert.ok(script.includes(DAEMON_NODE_OPTIONS), script);
  const start = repo('scripts/start.mjs');
  assert.ok(start.includes(`UV_THREADPOOL_SIZE ?? '${DAEMON_THREADPOOL_SIZE}'`));
  assert.ok(start.includes(DAEMON_NODE_OPTIONS));
});
