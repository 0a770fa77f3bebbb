// A runtime socket that is absent: the agent says so, keeps serving and retrying, and healthz is not ok.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, waitUntil } from '../../e2e/harness.ts';

test('absent runtime: healthz not ok, /pods still served, the log names the endpoint', async () => {
  const sock = `/tmp/nodelet-absent-${process.pid}.sock`;
  const stack = await startStack({
    nodeName: 'noruntime',
    withConsole: false,
    extraAgentArgs: ['--container-runtime-endpoint', `unix://${sock}`],
  });
  try {
    const r = await fetch(`${stack.readOnlyUrl}/pods`);
    assert.equal(r.status, 200);
    const hz = await fetch(`http://127.0.0.1:${stack.ports.healthz}/healthz?verbose`);
    assert.equal(hz.status, 500);
    assert.match(await hz.text(), /\[-\]runtime/);
    await waitUntil('log names the absent endpoint', () => readFileSync(join(stack.dir, 'agent.log'), 'utf8').includes(sock), 20_000);
    assert.match(readFileSync(join(stack.dir, 'agent.log'), 'utf8'), /not reachable|ENOENT|unavailable/i);
  } finally {
    await stack.stop();
  }
});
