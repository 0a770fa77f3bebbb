/**
 * The kubelet port's /exec, /attach and /portForward: auth, pod/container resolution, and the WebSocket proxied
 * to a (real) runtime streaming server whose sessions are recording fakes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { nullLogger } from '@nodelet/core/util';
import { ERROR, frame, STDOUT, startStreamingServer, type StreamingServer } from '@nodelet/runtime/streaming';
import { openChannelSession } from '@nodelet/runtime/testing';
import { jsonLogger } from '@nodelet/runtime';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { createTestPki, type TestPki } from '../testing/test-pki.ts';
import { createAuthorizer } from './auth.ts';
import { createKubeletServer, type KubeletServer } from './kubelet-server.ts';
import type { CriStreams } from './routes/cri-streams.ts';
import { parseStreamPath } from './routes/stream-routes.ts';

describe('parseStreamPath', () => {
  const table: Array<[string, ReturnType<typeof parseStreamPath>]> = [
    ['/exec/default/web/nginx', { kind: 'exec', namespace: 'default', pod: 'web', container: 'nginx' }],
    ['/exec/default/web/u1/nginx', { kind: 'exec', namespace: 'default', pod: 'web', uid: 'u1', container: 'nginx' }],
    ['/attach/default/web/nginx', { kind: 'attach', namespace: 'default', pod: 'web', container: 'nginx' }],
    ['/portForward/default/web', { kind: 'portForward', namespace: 'default', pod: 'web' }],
    ['/portForward/default/web/u1', { kind: 'portForward', namespace: 'default', pod: 'web', uid: 'u1' }],
    ['/exec/default/web', undefined],
    ['/exec/default//nginx', undefined],
    ['/portForward/default/web/u1/x', undefined],
  ];
  for (const [path, want] of table) it(path, () => assert.deepEqual(parseStreamPath(path), want));
});

describe('stream upgrades on the kubelet port', () => {
  let tp: TestPki;
  let streaming: StreamingServer;
  let srv: KubeletServer;
  let base: string;
  const calls: string[] = [];
  const kubelet = new FakeKubelet();
  const web: V1Pod = fakePod('default', 'web', ['nginx', 'stopped']);
  web.status = {
    phase: 'Running',
    containerStatuses: [
      { name: 'nginx', containerID: 'nodelet-runtime://c-nginx', state: { running: {} }, image: '', imageID: '', ready: true, restartCount: 0 },
      { name: 'stopped', containerID: 'nodelet://c-stopped', state: { terminated: { exitCode: 0 } }, image: '', imageID: '', ready: false, restartCount: 0 },
    ],
  };
  kubelet.pods = [web];
  const cri: CriStreams = {
    exec: async (p) => (calls.push(`exec ${p.containerId} ${p.cmd.join(' ')} stdin=${p.stdin} stdout=${p.stdout}`), { ok: true, url: streaming.register({ kind: 'exec', ...p }) }),
    attach: async (p) => (calls.push(`attach ${p.containerId}`), { ok: true, url: streaming.register({ kind: 'attach', cmd: [], ...p }) }),
    portForward: async (id) => (calls.push(`portForward ${id}`), { ok: true, url: streaming.register({ kind: 'portforward', podSandboxId: id, ports: [] }) }),
    sandboxOf: async (uid) => (uid === 'uid-default-web' ? 'sb-web' : undefined),
    close: () => undefined,
  };
  before(async () => {
    tp = createTestPki();
    streaming = await startStreamingServer({
      exec: (ws, req) => ws.send(frame(STDOUT, `ran ${req.cmd.join(' ')}`), () => ws.send(frame(ERROR, '{"metadata":{},"status":"Success"}'), () => ws.close(1000))),
      portForward: (ws, _req, url) => ws.send(frame(0, `ports=${url.searchParams.getAll('port').join(',')}`), () => ws.close(1000)),
    }, jsonLogger(() => undefined));
    srv = createKubeletServer({
      kubelet, logger: nullLogger, authorizer: createAuthorizer('AlwaysAllow'), nodeName: 'fake-node', anonymousAuth: false, cri,
      tls: { cert: tp.pki.serving.certPem, key: tp.pki.serving.keyPem, clientCAs: [tp.pki.ca.certPem] },
    });
    base = `wss://127.0.0.1:${await srv.listen(0, '127.0.0.1')}`;
  });
  after(async () => {
    await srv.close(10);
    await streaming.close();
    tp.cleanup();
  });
  const consoleTls = () => ({ ca: tp.pki.ca.certPem, cert: tp.pki.console.certPem, key: tp.pki.console.keyPem });

  it('exec with the console certificate runs through the runtime URL', async () => {
    calls.length = 0;
    const s = await openChannelSession(`${base}/exec/default/web/nginx?command=echo&command=hi&stdout=true&stderr=true`, ['v4.channel.k8s.io'], consoleTls());
    assert.equal(await s.closed, 1000);
    assert.equal(s.protocol, 'v4.channel.k8s.io');
    assert.equal(s.text(STDOUT), 'ran echo hi');
    assert.equal(JSON.parse(s.text(ERROR)).status, 'Success');
    assert.deepEqual(calls, ['exec c-nginx echo hi stdin=false stdout=true']);
  });

  // What kube-apiserver forwards for pods/exec (strategy.go streamParams): input / output / error = 1.
  it('exec with the API server\'s parameter names (input, output, error)', async () => {
    calls.length = 0;
    const s = await openChannelSession(`${base}/exec/default/web/nginx?command=cat&input=1&output=1&error=1`, ['v4.channel.k8s.io'], consoleTls());
    assert.equal(await s.closed, 1000);
    assert.equal(s.text(STDOUT), 'ran cat');
    assert.deepEqual(calls, ['exec c-nginx cat stdin=true stdout=true']);
  });

  it('portForward resolves the pod sandbox and passes the client query on', async () => {
    calls.length = 0;
    const s = await openChannelSession(`${base}/portForward/default/web?port=8080`, ['portforward.k8s.io'], consoleTls());
    await s.closed;
    assert.equal(s.text(0), 'ports=8080');
    assert.deepEqual(calls, ['portForward sb-web']);
  });

  const refusals: Array<[string, string, boolean, RegExp]> = [
    ['no client certificate', '/exec/default/web/nginx?command=true&stdout=1', false, /401/],
    ['unknown pod', '/exec/default/nope/nginx?command=true&stdout=1', true, /404 pod does not exist/],
    ['container not running', '/exec/default/web/stopped?command=true&stdout=1', true, /404 container stopped is not valid/],
    ['no command', '/exec/default/web/nginx?stdout=1', true, /400 you must specify at least 1 command/],
    ['no stream asked for', '/exec/default/web/nginx?command=true', true, /400 you must specify at least 1 of stdin, stdout, stderr/],
    ['no stream asked for (attach)', '/attach/default/nope/nginx?tty=1&error=1', true, /400 you must specify at least 1 of stdin, stdout, stderr/],
    ['wrong uid', '/portForward/default/web/other-uid', true, /404/],
    ['unknown upgrade path', '/nope', true, /404/],
  ];
  for (const [name, path, withCert, want] of refusals) {
    it(`refused: ${name}`, async () => {
      calls.length = 0;
      const tls = withCert ? consoleTls() : { ca: tp.pki.ca.certPem };
      await assert.rejects(openChannelSession(`${base}${path}`, ['v4.channel.k8s.io'], tls), want);
      assert.deepEqual(calls, []);
    });
  }
});
