/**
 * Integration: CRI Exec / PortForward on the in-process runtime (root, host image), through the URLs they return,
 * over WebSocket and SPDY/3.1.
 * Run: node --import tsx --test packages/runtime/src/streaming/streaming.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { containerConfig, sandboxConfig, startInProcess, until, type Harness } from '../testing/harness.ts';
import { ERROR, STDERR, STDOUT } from './channel-protocol.ts';
import { openChannelSession } from './testing/channel-client.ts';
import { connectSpdy } from './testing/spdy-client.ts';

let h: Harness;
let pod: string;
let container: string;
const SERVER = "require('node:net').createServer((s) => s.on('data', (d) => s.end('pod got ' + d))).listen(8080, '127.0.0.1')";
before(async () => {
  h = await startInProcess();
  const config = sandboxConfig('streams', join(h.dir, 'logs'));
  pod = (await h.rt.RunPodSandbox({ config })).podSandboxId;
  container = (await h.rt.CreateContainer({ podSandboxId: pod, config: containerConfig('srv', ['node', '-e', SERVER]), sandboxConfig: config })).containerId;
  await h.rt.StartContainer({ containerId: container });
});
after(async () => {
  await h?.cleanup();
});

const ws = (url: string) => url.replace(/^http:/, 'ws:');

test('Exec: stdout, stderr and the exit code in the Status on the error channel', async () => {
  const cases: Array<[string, string, string, object]> = [
    ['echo hi; echo err >&2; exit 3', 'hi\n', 'err\n',
      { status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '3' }] } }],
    ['echo pid=$$', 'pid=', '', { status: 'Success' }],
  ];
  for (const [script, out, err, status] of cases) {
    const { url } = await h.rt.Exec({ containerId: container, cmd: ['sh', '-c', script], stdout: true, stderr: true });
    const s = await openChannelSession(ws(url), ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
    assert.equal(s.protocol, 'v5.channel.k8s.io');
    assert.equal(await s.closed, 1000);
    assert.ok(s.text(STDOUT).startsWith(out), `${script}: ${s.text(STDOUT)}`);
    assert.equal(s.text(STDERR), err, script);
    assert.deepEqual({ ...JSON.parse(s.text(ERROR)), message: undefined, metadata: undefined }, { ...status, message: undefined, metadata: undefined }, script);
  }
});

// A command killed by a signal exits 128 + the signal's number, as runc reports it: containerd answers 139 for a
// SIGSEGV in both ExecSync and the exec stream's Status (this runtime said 143 for any signal but SIGKILL).
test('Exec and ExecSync: a command killed by a signal exits 128 + its number (SIGSEGV: 139)', async () => {
  const sync = await h.rt.ExecSync({ containerId: container, cmd: ['sh', '-c', 'kill -SEGV $$'], timeout: 10 });
  assert.equal(sync.exitCode, 139);
  const { url } = await h.rt.Exec({ containerId: container, cmd: ['sh', '-c', 'kill -USR1 $$'], stdout: true, stderr: true });
  const s = await openChannelSession(ws(url), ['v4.channel.k8s.io']);
  await s.closed;
  assert.deepEqual(JSON.parse(s.text(ERROR)).details, { causes: [{ reason: 'ExitCode', message: '138' }] });
});

// Upstream "[sig-node] Pods should support remote command execution over websockets" speaks channel.k8s.io
// and fails on any message with data on a channel other than stdout: v1 sends no Status on success
// (the kubelet's v1WriteStatusFunc), only the error text on failure.
test('Exec over channel.k8s.io (v1): nothing on the error channel on success, the message on failure', async () => {
  const run = async (script: string) => {
    const { url } = await h.rt.Exec({ containerId: container, cmd: ['sh', '-c', script], stdout: true, stderr: true });
    const s = await openChannelSession(ws(url), ['channel.k8s.io']);
    assert.equal(s.protocol, 'channel.k8s.io');
    assert.equal(await s.closed, 1000);
    return s;
  };
  const ok = await run('echo remote execution test');
  assert.equal(ok.text(STDOUT), 'remote execution test\n');
  assert.equal(ok.channels.has(ERROR), false, `error channel: ${ok.text(ERROR)}`);
  const bad = await run('exit 3');
  assert.match(bad.text(ERROR), /^command terminated with non-zero exit code: .*exit code 3$/);
});

test('Exec with stdin: v5 close of channel 0 ends the input', async () => {
  const { url } = await h.rt.Exec({ containerId: container, cmd: ['cat'], stdin: true, stdout: true });
  const s = await openChannelSession(ws(url), ['v5.channel.k8s.io']);
  s.write(0, 'typed\n');
  s.closeChannel(0);
  await s.closed;
  assert.equal(s.text(STDOUT), 'typed\n');
  assert.equal(JSON.parse(s.text(ERROR)).status, 'Success');
});

test('Exec refusals: unknown container, empty cmd', async () => {
  await assert.rejects(h.rt.Exec({ containerId: 'nope', cmd: ['true'], stdout: true }), /NOT_FOUND|not found/);
  await assert.rejects(h.rt.Exec({ containerId: container, cmd: [], stdout: true }), /cmd must not be empty/);
});

test('Attach follows the container output from now on and ends with its exit code', async () => {
  const config = sandboxConfig('attach', join(h.dir, 'logs'));
  const sb = (await h.rt.RunPodSandbox({ config })).podSandboxId;
  const script = 'echo before; while [ ! -e /tmp/go ]; do sleep 0.1; done; echo tick; echo tock >&2; exit 4';
  const id = (await h.rt.CreateContainer({ podSandboxId: sb, config: containerConfig('att', ['sh', '-c', script]), sandboxConfig: config })).containerId;
  await h.rt.StartContainer({ containerId: id });
  // Attach starts at the log's end: wait for "before" to be in it.
  await until(() => existsSync(join(h.dir, 'logs', 'att/0.log')) && readFileSync(join(h.dir, 'logs', 'att/0.log'), 'utf8').includes('before'), 'before in the log');
  const { url } = await h.rt.Attach({ containerId: id, stdout: true, stderr: true });
  const s = await openChannelSession(ws(url), ['v4.channel.k8s.io']);
  await h.rt.ExecSync({ containerId: id, cmd: ['touch', '/tmp/go'], timeout: 5 });
  await s.closed;
  assert.equal(s.text(STDOUT), 'tick\n');
  assert.equal(s.text(STDERR), 'tock\n');
  assert.deepEqual(JSON.parse(s.text(ERROR)).details?.causes, [{ reason: 'ExitCode', message: '4' }]);
  await h.rt.RemovePodSandbox({ podSandboxId: sb });
});

test('PortForward: data reaches 127.0.0.1:8080 inside the pod network namespace', async () => {
  const { url } = await h.rt.PortForward({ podSandboxId: pod, port: [8080] });
  // The server in the pod may still be starting: retry a few connections.
  let got = '';
  for (let i = 0; i < 50 && !got.startsWith('pod got'); i++) {
    const { url: u } = i === 0 ? { url } : await h.rt.PortForward({ podSandboxId: pod, port: [8080] });
    const s = await openChannelSession(ws(u), ['portforward.k8s.io']);
    s.write(0, 'ping');
    await s.closed;
    const data = s.channels.get(0) ?? Buffer.alloc(0);
    assert.equal(data.readUInt16LE(0), 8080);
    got = data.subarray(2).toString();
    if (!got) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(got, 'pod got ping');
});

test('PortForward to a closed port reports the failure on the error channel; the host port is not reachable', async () => {
  const { url } = await h.rt.PortForward({ podSandboxId: pod, port: [8081] });
  const s = await openChannelSession(ws(url), ['portforward.k8s.io']);
  await s.closed;
  const err = s.channels.get(1) ?? Buffer.alloc(0);
  assert.equal(err.readUInt16LE(0), 8081);
  assert.match(err.subarray(2).toString(), /error forwarding port 8081 to pod .*ECONNREFUSED/);
});

test('SPDY exec (v4): one stream per streamType; stdin FIN ends the input; the Status JSON on the error stream', async () => {
  const { url } = await h.rt.Exec({ containerId: container, cmd: ['sh', '-c', 'cat; echo err >&2'], stdin: true, stdout: true, stderr: true });
  const c = await connectSpdy(url, ['v4.channel.k8s.io', 'v3.channel.k8s.io']);
  assert.equal(c.protocol, 'v4.channel.k8s.io');
  const error = c.open({ streamType: 'error' });
  const stdin = c.open({ streamType: 'stdin' });
  const stdout = c.open({ streamType: 'stdout' });
  const stderr = c.open({ streamType: 'stderr' });
  await stdin.replied;
  stdin.write('over spdy\n');
  stdin.end();
  assert.deepEqual(await Promise.all([stdout.ended, stderr.ended, error.ended]), ['fin', 'fin', 'fin']);
  await c.closed;
  assert.equal(stdout.text(), 'over spdy\n');
  assert.equal(stderr.text(), 'err\n');
  assert.deepEqual(JSON.parse(error.text()), { metadata: {}, status: 'Success' });
});

test('SPDY exec (v3): a non-zero exit is reported as text on the error stream', async () => {
  const { url } = await h.rt.Exec({ containerId: container, cmd: ['sh', '-c', 'exit 3'], stdout: true });
  const c = await connectSpdy(url, ['v3.channel.k8s.io']);
  const error = c.open({ streamType: 'error' });
  c.open({ streamType: 'stdout' });
  await error.ended;
  assert.match(error.text(), /^command terminated with non-zero exit code: .*exit code 3$/);
});

test('SPDY port-forward: data / error stream pairs per requestID; a closed port is reported on the error stream', async () => {
  const { url } = await h.rt.PortForward({ podSandboxId: pod, port: [] });
  const c = await connectSpdy(url, ['portforward.k8s.io']);
  assert.equal(c.protocol, 'portforward.k8s.io');
  const err0 = c.open({ streamType: 'error', port: '8080', requestID: '0' }, { fin: true });
  const data0 = c.open({ streamType: 'data', port: '8080', requestID: '0' });
  data0.write('ping');
  assert.equal(await data0.ended, 'fin');
  assert.equal(data0.text(), 'pod got ping');
  await err0.ended;
  assert.equal(err0.text(), '');
  const err1 = c.open({ streamType: 'error', port: '1', requestID: '1' }, { fin: true });
  c.open({ streamType: 'data', port: '1', requestID: '1' });
  await err1.ended;
  assert.match(err1.text(), /^error forwarding port 1 to pod .*failed to connect to localhost:1 inside namespace/);
  c.socket.destroy();
});
