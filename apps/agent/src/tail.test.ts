import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { formatEventLine } from './tail/format.ts';
import { parseTailArgs } from './tail/options.ts';
import { FakeKubelet } from './testing/fake-kubelet.ts';
import { startTestServer, type TestServer } from './testing/test-server.ts';

const tailMain = fileURLToPath(new URL('./tail.ts', import.meta.url));

describe('tail options and format', () => {
  it('parses flags with defaults from the repo and env', () => {
    const r = parseTailArgs(['--namespace', 'default', '--pod=web', '--type', 'pleg,podStatus', '--json'], '/repo', {});
    assert.deepEqual(r, {
      ok: true,
      value: { namespace: 'default', pod: 'web', types: ['pleg', 'podStatus'], json: true, rootDir: '/repo/.nodelet', server: 'https://127.0.0.1:10250', help: false },
    });
    assert.deepEqual(parseTailArgs(['--type', 'nope'], '/repo', {}), { ok: false, reason: 'unknown event type "nope" (pleg, podStatus, podConfig, k8sEvent, runtime)' });
    assert.deepEqual(parseTailArgs(['--what'], '/repo', {}), { ok: false, reason: 'unknown flag: --what' });
  });

  const t = '2026-01-01T00:00:00.000Z';
  const pod = { namespace: 'default', name: 'web', uid: 'u' };
  const table: Array<[Parameters<typeof formatEventLine>[0], RegExp]> = [
    [{ type: 'pleg', seq: 1, time: t, pod, pleg: 'ContainerDied', containerId: 'abcdef0123456789', containerName: 'main' }, /pleg\s+default\/web\s+ContainerDied main \(abcdef012345\)$/],
    [{ type: 'podConfig', seq: 2, time: t, pod, op: 'ADD', source: 'file' }, /podConfig\s+default\/web\s+ADD from file$/],
    [{ type: 'podStatus', seq: 3, time: t, pod, phase: 'Running', ready: false, status: {}, containers: [{ name: 'main', state: 'waiting', reason: 'CrashLoopBackOff', ready: false, restartCount: 3 }] }, /phase=Running ready=false main=waiting\(CrashLoopBackOff\) restarts=3$/],
    [{ type: 'k8sEvent', seq: 4, time: t, eventType: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' }, count: 2, firstTimestamp: t, lastTimestamp: t }, /default\/web\s+Warning BackOff: Back-off restarting failed container \(x2\)$/],
    [{ type: 'runtime', seq: 5, time: t, ready: false, message: 'connection refused' }, /runtime\s+-\s+runtime NOT ready: connection refused$/],
  ];
  for (const [e, want] of table) {
    it(`formats ${e.type}`, () => {
      const line = formatEventLine(e);
      assert.ok(line.startsWith(t));
      assert.match(line, want);
    });
  }
});

describe('tail CLI against a running server', () => {
  let ts: TestServer;
  const kubelet = new FakeKubelet();
  const children: ChildProcess[] = [];
  before(async () => {
    ts = await startTestServer(kubelet);
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await ts.close();
  });

  function startTail(extra: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', tailMain, '--root-dir', ts.tp.root, '--server', ts.base, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const text = { out: '', err: '' };
    child.stdout?.setEncoding('utf8').on('data', (c: string) => (text.out += c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (text.err += c));
    const waitFor = (re: RegExp, stream: 'out' | 'err' = 'out') =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const m = text[stream].split('\n').find((l) => re.test(l));
          if (m) return resolve(m);
          if (child.exitCode !== null) return reject(new Error(`tail exited ${child.exitCode}: ${text.out}${text.err}`));
          (stream === 'out' ? child.stdout : child.stderr)?.once('data', check);
        };
        check();
      });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const connections = () => text.err.split('\n').filter((l) => l.startsWith('connected to')).length;
    return { child, waitFor, exited, output: () => text.out, connections, stderr: () => text.err };
  }

  it('prints one line per matching event and exits 0 on Ctrl-C', async () => {
    const tail = startTail(['--namespace', 'default']);
    // Once the tail saw the hello, every later event reaches it (it filters on its side too).
    await tail.waitFor(/^connected to/, 'err');
    kubelet.events.publish({ type: 'pleg', pod: { namespace: 'other', name: 'x', uid: 'u0' }, pleg: 'ContainerStarted', containerId: 'c0' });
    kubelet.events.publish({ type: 'pleg', pod: { namespace: 'default', name: 'web', uid: 'u1' }, pleg: 'ContainerStarted', containerId: 'c1', containerName: 'main' });
    const line = await tail.waitFor(/default\/web/);
    assert.match(line, /pleg\s+default\/web\s+ContainerStarted main \(c1\)/);
    assert.ok(!tail.output().includes('other/x'), 'filtered by namespace');
    tail.child.kill('SIGINT');
    assert.equal(await tail.exited, 0);
  });

  it('reconnects after the server drops it and prints what it missed', async () => {
    const tail = startTail(['--pod', 'web']);
    await tail.waitFor(/^connected to/, 'err');
    (await ts.srv.sockets.ready()).io.disconnectSockets(true);
    await tail.waitFor(/^disconnected \(io server disconnect\)/, 'err');
    const missed = kubelet.events.publish({ type: 'podConfig', pod: { namespace: 'default', name: 'web', uid: 'u1' }, op: 'UPDATE', source: 'file' });
    const line = await tail.waitFor(/UPDATE from file/);
    assert.ok(line.startsWith(missed.time));
    assert.equal(tail.connections(), 2);
    tail.child.kill('SIGINT');
    assert.equal(await tail.exited, 0);
  });

  it('--json prints raw event JSON', async () => {
    const tail = startTail(['--json', '--type', 'runtime']);
    await tail.waitFor(/^connected to/, 'err');
    const sent = kubelet.events.publish({ type: 'runtime', ready: true, message: 'back' });
    const line = await tail.waitFor(/"type":"runtime"/);
    assert.deepEqual(JSON.parse(line), sent);
    tail.child.kill('SIGINT');
    assert.equal(await tail.exited, 0);
  });
});
