/**
 * Issue #12 end to end: a pod with 10 000 env vars (a start of most of a second on the embedded runtime) under a
 * real agent, resynced every 2 s with the evented PLEG on: the runtime holds exactly one container record of the
 * name (attempt 0, running) and /pods shows it with restartCount 0. The unit-level race (a started event arriving
 * after the start's reply) is in packages/core/src/kubelet/slow-start.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { V1Pod } from '@kubernetes/client-node';
import { createCriClient } from '@nodelet/core/cri';
import { doRequest } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid, stopRuntimeOf } from './testing/processes.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-slow-start-it-'));
let agent: ChildProcess | undefined;

after(async () => {
  // Stopping the runtime leaves containers running: stop ours first.
  const sock = join(root, 'runtime', 'nodelet.sock');
  if (existsSync(sock)) {
    const cri = createCriClient(`unix://${sock}`);
    const { containers } = await cri.listContainers({}).catch(() => ({ containers: [] }));
    await Promise.all(containers.map((c) => cri.stopContainer({ containerId: c.id, timeout: 0 }).catch(() => undefined)));
    cri.close();
  }
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 5000);
  await stopRuntimeOf(root);
  rmSync(root, { recursive: true, force: true });
});

test('a pod with 10 000 env vars runs exactly one container through resyncs', { timeout: 240_000 }, async () => {
  const dir = join(root, 'manifests');
  mkdirSync(dir);
  const env = Array.from({ length: 10_000 }, (_, i) => ({ name: `VAR_${i}`, value: `value-${i}` }));
  const spec = { containers: [{ name: 'app', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never', command: ['sleep', '600'], env }] };
  writeFileSync(join(dir, 'big.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big', namespace: 'default' }, spec }));
  const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
  agent = spawn(process.execPath, ['--import', 'tsx', main,
    '--root-dir', root, '--pod-manifest-path', dir, '--node-name', 'it', '--port', String(port), '--read-only-port', String(ro),
    '--healthz-port', String(hz), '--file-check-frequency', '1s', '--address', '127.0.0.1', '--sync-frequency', '2s',
  ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
  await lineReader(agent).waitForLine((l) => l.includes('"msg":"listening","server":"healthz"'), 'agent listening');
  const app = async () => {
    const pods: V1Pod[] = JSON.parse((await doRequest(`http://127.0.0.1:${ro}/pods`)).body).items;
    return pods.find((p) => p.metadata?.name === 'big-it')?.status?.containerStatuses?.find((c) => c.name === 'app');
  };
  // The start itself takes under a second on an idle machine, tens of seconds on a loaded one.
  await eventually(async () => ((await app())?.state?.running ? true : undefined), 150_000, 'app running').catch(async (e: unknown) => {
    throw new Error(`${String(e)}; app status: ${JSON.stringify(await app())}`);
  });
  // Resyncs every 2 s, PLEG relists and housekeeping go by.
  await new Promise((r) => setTimeout(r, 6_000));
  const st = await app();
  assert.equal(st?.restartCount, 0);
  assert.ok(st?.state?.running);
  const cri = createCriClient(`unix://${join(root, 'runtime', 'nodelet.sock')}`);
  try {
    const { containers } = await cri.listContainers({ filter: { labelSelector: { 'io.kubernetes.container.name': 'app' } } });
    assert.deepEqual(containers.map((c) => [c.metadata?.attempt, c.state]), [[0, 'CONTAINER_RUNNING']]);
  } finally {
    cri.close();
  }
  const runtimeLog = readFileSync(join(root, 'runtime', 'runtime.log'), 'utf8');
  const started = runtimeLog.split('\n').filter((l) => l.includes('"msg":"container started"'));
  assert.equal(started.length, 1, started.join('\n'));
});
