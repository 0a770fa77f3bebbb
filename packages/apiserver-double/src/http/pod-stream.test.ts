// Integration: pods/exec and pods/portforward WebSocket upgrades through the double to a fake kubelet (TLS,
// client certs required) whose /exec and /portForward answer on the channel protocol, as kube-apiserver does;
// SPDY/3.1 upgrades (kubectl port-forward, exec with websockets off) pass through with method and protocols.
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { PassThrough, Writable } from 'node:stream';
import { test, type TestContext } from 'node:test';
import { Exec, KubeConfig, PortForward, type V1Status } from '@kubernetes/client-node';
import { WebSocketServer } from 'ws';
import { SpdyConnection } from '@nodelet/runtime/streaming';
import { connectSpdy } from '@nodelet/runtime/testing';
import { startApiServerDouble } from '../server.ts';

/** Fake kubelet: records each upgrade (path, query, client CN, protocol); exec echoes, portForward answers on channel 0. */
async function fakeKubelet(t: TestContext, issue: Awaited<ReturnType<typeof startApiServerDouble>>['issueCert'], ca: string) {
  const calls: string[] = [];
  const serving = issue({ commonName: 'node-1', usage: 'server', ips: ['127.0.0.1'] });
  const server = https.createServer({ ...serving, ca, requestCert: true, rejectUnauthorized: true }, (_req, res) => res.writeHead(400).end());
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => [...p][0] ?? false });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const cn = (req.socket as TLSSocket).getPeerCertificate()?.subject?.CN;
    if (req.headers.upgrade === 'SPDY/3.1') {
      const offered = req.rawHeaders.filter((_, i) => req.rawHeaders[i - 1]?.toLowerCase() === 'x-stream-protocol-version');
      calls.push(`${req.method} ${url.pathname}${url.search} cn=${String(cn)} spdy=${offered.join('|')}`);
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${offered[0]}\r\n\r\n`);
      new SpdyConnection(socket, (s) => s.pipe(s));
      return;
    }
    if (url.pathname.endsWith('/missing')) return void socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 25\r\nConnection: close\r\n\r\ncontainer missing unknown');
    wss.handleUpgrade(req, socket, head, (ws) => {
      calls.push(`${url.pathname}${url.search} cn=${String(cn)} proto=${ws.protocol}`);
      const send = (ch: number, s: string | Buffer) => ws.send(Buffer.concat([Buffer.from([ch]), Buffer.from(s)]));
      if (url.pathname.startsWith('/exec/')) {
        send(1, `out:${url.searchParams.getAll('command').join(' ')}`);
        send(3, JSON.stringify({ metadata: {}, status: 'Success' }));
        ws.close(1000);
      } else {
        send(0, Buffer.from([0x90, 0x1f])); // port 8080, little-endian
        send(1, Buffer.from([0x90, 0x1f]));
        ws.on('message', (m: Buffer) => {
          send(0, `echo:${m.subarray(1).toString()}`);
          ws.close(1000);
        });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { wss.close(); server.close(() => r()); server.closeAllConnections(); }));
  return { calls, port: (server.address() as AddressInfo).port };
}

/** The double, a fake kubelet registered as node-1's endpoint, pod default/web bound to it, an admin KubeConfig. */
async function stack(t: TestContext) {
  const double = await startApiServerDouble();
  t.after(() => double.stop());
  const kubelet = await fakeKubelet(t, double.issueCert, double.ca);
  double.store.put({
    apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' },
    status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: kubelet.port } } },
  });
  double.store.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'a' }] } });
  const kc = new KubeConfig();
  kc.loadFromFile(double.adminKubeconfig());
  return { double, kubelet, kc };
}

function sink() {
  let text = '';
  return { w: new Writable({ write: (c: Buffer, _e, cb) => ((text += c.toString()), cb()) }), text: () => text };
}

test('pods/exec and pods/portforward upgrades reach the kubelet with the kubelet-client cert', async (t) => {
  const { double, kubelet, kc } = await stack(t);

  const out = sink();
  const status = await new Promise<V1Status>((resolve, reject) => {
    new Exec(kc).exec('default', 'web', 'app', ['echo', 'hi'], out.w, null, null, false, resolve).catch(reject);
  });
  assert.equal(status.status, 'Success');
  assert.equal(out.text(), 'out:echo hi');
  assert.equal(kubelet.calls[0], '/exec/default/web/app?output=1&command=echo&command=hi cn=kube-apiserver-kubelet-client proto=v5.channel.k8s.io');

  const pf = sink();
  const input = new PassThrough();
  const ws = await new PortForward(kc).portForward('default', 'web', [8080], pf.w, null, input);
  input.write('ping');
  await new Promise((r) => (ws as unknown as { once(e: string, f: () => void): void }).once('close', () => r(undefined)));
  assert.equal(pf.text(), 'echo:ping');
  assert.equal(kubelet.calls[1], '/portForward/default/web?port=8080 cn=kube-apiserver-kubelet-client proto=v5.channel.k8s.io');

  const refused = await new Exec(kc).exec('default', 'web', 'missing', ['true'], out.w, null, null, false).then(() => 'opened', (e: { message?: string }) => String(e?.message));
  assert.match(refused, /400/, 'container missing is not in the pod spec');
  assert.equal(kubelet.calls.length, 2);
});

test('SPDY/3.1 upgrades pass through: method, every offered X-Stream-Protocol-Version, the negotiated answer', async (t) => {
  const { double, kubelet, kc } = await stack(t);
  const tls: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);

  const pf = await connectSpdy(`${double.url}/api/v1/namespaces/default/pods/web/portforward`, ['portforward.k8s.io'], tls);
  assert.equal(pf.protocol, 'portforward.k8s.io');
  const data = pf.open({ streamType: 'data', port: '8080', requestID: '0' });
  data.write('through');
  data.end();
  assert.equal(await data.ended, 'fin');
  assert.equal(data.text(), 'through');
  pf.socket.destroy();

  const exec = await connectSpdy(`${double.url}/api/v1/namespaces/default/pods/web/exec?command=ls&stdout=true`, ['v4.channel.k8s.io', 'v3.channel.k8s.io'], tls);
  assert.equal(exec.protocol, 'v4.channel.k8s.io');
  exec.socket.destroy();
  assert.deepEqual(kubelet.calls, [
    'POST /portForward/default/web cn=kube-apiserver-kubelet-client spdy=portforward.k8s.io',
    'POST /exec/default/web/app?output=1&command=ls cn=kube-apiserver-kubelet-client spdy=v4.channel.k8s.io|v3.channel.k8s.io',
  ]);
});
