/**
 * The agent as a real process: embedded runtime spawned on first start, a static pod from a manifest dir, the
 * three ports found from the "listening" lines, /healthz, /pods, /containerLogs, then SIGTERM → exit 0 with the
 * runtime left running (stopped by the test).
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
    agent = spawn(process.execPath, ['--import', 'tsx', main,
      '--root-dir', root, '--pod-manifest-path', manifests, '--node-name', 'itest',
      '--port', String(port), '--read-only-port', String(ro), '--healthz-port', String(hz),
      '--file-check-frequency', '1s', '--address', '127.0.0.1',
    ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
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

    const exited = new Promise<number | null>((resolve) => agent?.once('exit', (code) => resolve(code)));
    agent.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.ok(alive(runtimePid), 'the embedded runtime outlives the agent');
  });
});
