import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonLogger } from '../util/logger.ts';
import { SandboxFailureLog } from './sandbox-failures.ts';

function recording() {
  const lines: Array<{ level: string; msg: string; id?: string; pod?: string }> = [];
  return { lines, logger: jsonLogger((l) => lines.push(JSON.parse(l) as (typeof lines)[number])) };
}

const MSG = 'RunPodSandbox: network setup failed';
const NO_RANGE = 'no free /24 left in 10.89.0.0/16 for network nodelet-embedded';
const web = { uid: 'u-web', namespace: 'default', name: 'web' };

test('a pod retrying with the same cause is logged at error once, then at debug (each retry has a new sandbox id)', () => {
  const { lines, logger } = recording();
  const log = new SandboxFailureLog(logger);
  for (const id of ['aaa111', 'bbb222', 'ccc333']) log.report(web, id, MSG, NO_RANGE);
  // The plugin's text names the sandbox: still the same cause.
  log.report(web, 'ddd444', MSG, 'plugin type="bridge" failed (add): container ddd444: EEXIST');
  log.report(web, 'eee555', MSG, 'plugin type="bridge" failed (add): container eee555: EEXIST');
  assert.deepEqual(lines.map((l) => [l.level, l.id]), [['error', 'aaa111'], ['debug', 'bbb222'], ['debug', 'ccc333'], ['error', 'ddd444'], ['debug', 'eee555']]);
  assert.equal(lines[0]?.pod, 'default/web');
  assert.equal(lines[1]?.msg, `${MSG} (again)`);
});

test('another pod with the same cause is news; a pod whose sandbox started is news again', () => {
  const { lines, logger } = recording();
  const log = new SandboxFailureLog(logger);
  log.report(web, 'a1', MSG, NO_RANGE);
  log.report({ uid: 'u-db', namespace: 'default', name: 'db' }, 'b1', MSG, NO_RANGE);
  log.clear('u-web');
  log.report(web, 'a2', MSG, NO_RANGE);
  assert.deepEqual(lines.map((l) => l.level), ['error', 'error', 'error']);
});

test('bounded: the oldest pod is forgotten past maxPods', () => {
  const { lines, logger } = recording();
  const log = new SandboxFailureLog(logger, 2);
  for (const uid of ['p1', 'p2', 'p3']) log.report({ uid }, `s-${uid}`, MSG, NO_RANGE);
  log.report({ uid: 'p3' }, 's-p3b', MSG, NO_RANGE);
  log.report({ uid: 'p1' }, 's-p1b', MSG, NO_RANGE);
  assert.deepEqual(lines.map((l) => l.level), ['error', 'error', 'error', 'debug', 'error']);
});
