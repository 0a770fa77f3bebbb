/**
 * The agent as a real process: embedded runtime spawned on first start, a static pod from a manifest dir, the
 * three ports found from the "listening" lines, /healthz, /pods, /containerLogs, then SIGTERM → exit 0 with the
 * runtime left running (stopped by the test); started again on the same root dir, its flight recorder still has
 * the rows from before.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { doRequest } from './testing/https-client.ts';
import { alive, eventually, freePort, lineReader, stopPid } from './testing/processes.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-agent-it-'));
let agent: ChildProcess | undefined;
let flags: string[] = [];
/** The pod's flight recorder rows before the SIGTERM (the restart test finds them again). */
let recorded: Array<{ id: number; kind: string; reason?: string }> = [];

type Tls = { ca: string; cert: string; key: string };
async function recorderRows(port: number, tls: Tls, podUID: string): Promise<Array<{ id: number; kind: string; reason?: string }>> {
  const input = encodeURIComponent(JSON.stringify({ podUID, limit: 1000 }));
  const r = await doRequest(`https://127.0.0.1:${port}/trpc/recorder.query?input=${input}`, tls);
  assert.equal(r.status, 200, r.body);
  return JSON.parse(r.body).result.data.entries;
}

after(async () => {
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 5000);
  const pidFile = join(root, 'runtime', 'runtime.pid');
  if (existsSync(pidFile)) await stopPid(Number(readFileSync(pidFile, 'utf8').trim()));
  rmSync(root, { recursive: true, force: true });
});

const manifest = `apiVersion: v1
kind: Pod
metadata: { name: hello, namespace: default }
spec:
  containers:
    - name: main
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", "echo hello from nodelet; sleep 3600"]
`;

describe('agent process', () => {
  it('starts, serves the pod and its log, and stops on SIGTERM leaving the runtime running', async () => {
    const manifests = join(root, 'manifests');
    mkdirSync(manifests);
    writeFileSync(join(manifests, 'hello.yaml'), manifest);
    const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
    flags = [
      '--root-dir', root, '--pod-manifest-path', manifests, '--node-name', 'itest',
      '--port', String(port), '--read-only-port', String(ro), '--healthz-port', String(hz),
      '--file-check-frequency', '1s', '--address', '127.0.0.1',
    ];
    agent = spawn(process.execPath, ['--import', 'tsx', main, ...flags], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
    const out = lineReader(agent);
    for (const server of ['kubelet', 'readonly', 'healthz']) {
      const line = await out.waitForLine((l) => l.includes(`"msg":"listening","server":"${server}"`), `${server} listening`);
      assert.equal(JSON.parse(line).port, { kubelet: port, readonly: ro, healthz: hz }[server]);
    }
    const runtimePid = Number(readFileSync(join(root, 'runtime', 'runtime.pid'), 'utf8').trim());
    assert.ok(alive(runtimePid));

    await eventually(async () => ((await doRequest(`http://127.0.0.1:${hz}/healthz`)).body === 'ok' ? true : undefined), 30_000, 'healthz ok');
    const tls = {
      ca: readFileSync(join(root, 'pki', 'ca.crt'), 'utf8'),
      cert: readFileSync(join(root, 'pki', 'console.crt'), 'utf8'),
      key: readFileSync(join(root, 'pki', 'console.key'), 'utf8'),
    };
    const pod = await eventually(async () => {
      const list = JSON.parse((await doRequest(`https://127.0.0.1:${port}/pods`, tls)).body);
      const p = list.items.find((x: { metadata: { name: string } }) => x.metadata.name === 'hello-itest');
      return p?.status?.phase === 'Running' ? p : undefined;
    }, 60_000, 'static pod hello-itest Running');
    assert.equal(pod.metadata.namespace, 'default');
    const ro200 = JSON.parse((await doRequest(`http://127.0.0.1:${ro}/pods`)).body);
    assert.equal(ro200.kind, 'PodList');
    const log = await eventually(async () => {
      const r = await doRequest(`https://127.0.0.1:${port}/containerLogs/default/hello-itest/main`, tls);
      return r.status === 200 && r.body.includes('hello from nodelet') ? r.body : undefined;
    }, 30_000, 'container log');
    assert.match(log, /hello from nodelet/);
    assert.equal((await doRequest(`https://127.0.0.1:${port}/pods`, { ca: tls.ca })).status, 401);
    // The flight recorder (#16 item 4) has the pod's admission and its container's start (written about once a second).
    recorded = await eventually(async () => {
      const rows = await recorderRows(port, tls, pod.metadata.uid);
      return rows.some((r) => r.kind === 'admission') && rows.some((r) => r.kind === 'sync' && r.reason === 'StartContainer') ? rows : undefined;
    }, 30_000, 'recorder rows of the pod');

    const exited = new Promise<number | null>((resolve) => agent?.once('exit', (code) => resolve(code)));
    agent.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.ok(alive(runtimePid), 'the embedded runtime outlives the agent');
  });

  it('keeps the flight recorder across an agent restart (<root-dir>/flight-recorder/recorder.db)', async () => {
    assert.ok(recorded.length > 0, 'the first test recorded rows');
    agent = spawn(process.execPath, ['--import', 'tsx', main, ...flags], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
    const out = lineReader(agent);
    const port = JSON.parse(await out.waitForLine((l) => l.includes('"msg":"listening","server":"kubelet"'), 'kubelet listening')).port as number;
    const tls = { ca: readFileSync(join(root, 'pki', 'ca.crt'), 'utf8'), cert: readFileSync(join(root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(root, 'pki', 'console.key'), 'utf8') };
    const uid = await eventually(async () => {
      const list = JSON.parse((await doRequest(`https://127.0.0.1:${port}/pods`, tls)).body);
      return list.items.find((x: { metadata: { name: string } }) => x.metadata.name === 'hello-itest')?.metadata.uid as string | undefined;
    }, 30_000, 'the static pod again');
    const after = await eventually(async () => {
      const rows = await recorderRows(port, tls, uid);
      return rows.filter((r) => r.kind === 'admission').length >= 2 ? rows : undefined;
    }, 30_000, 'a second admission row after the restart');
    assert.deepEqual(after.slice(0, recorded.length).map((r) => r.id), recorded.map((r) => r.id), 'the rows from before the restart are all there');
    const exited = new Promise<number | null>((resolve) => agent?.once('exit', (code) => resolve(code)));
    agent.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
