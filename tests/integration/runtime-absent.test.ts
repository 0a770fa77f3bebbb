// A runtime socket that is absent: the agent says so, keeps serving and retrying, and healthz is not ok; once a
// runtime answers there, healthz is ok again within seconds (no back-off grown during the outage holds it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, waitUntil } from '../../e2e/harness.ts';
import { startInProcess } from '@nodelet/runtime/testing';

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

test('a runtime that appears after a long absence: healthz ok within seconds of it serving', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-late-rt-'));
  const stack = await startStack({ nodeName: 'lateruntime', withConsole: false, extraAgentArgs: ['--container-runtime-endpoint', `unix://${join(dir, 'cri.sock')}`] });
  const healthz = async () => (await fetch(`http://127.0.0.1:${stack.ports.healthz}/healthz`)).status;
  let rt: Awaited<ReturnType<typeof startInProcess>> | undefined;
  try {
    // Absent for a while: every retry so far failed.
    await new Promise((r) => setTimeout(r, 35_000));
    assert.equal(await healthz(), 500);
    rt = await startInProcess(dir);
    await waitUntil('healthz ok once the runtime serves', async () => (await healthz()) === 200, 10_000);
  } finally {
    await stack.stop();
    await rt?.cleanup();
  }
});
