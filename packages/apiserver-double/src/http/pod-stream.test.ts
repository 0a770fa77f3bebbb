// Integration: pods/exec and pods/portforward WebSocket upgrades through the double to a fake kubelet (TLS,
// client certs required) whose /exec and /portForward answer on the channel protocol, as kube-apiserver does.
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { PassThrough, Writable } from 'node:stream';
import { test, type TestContext } from 'node:test';
import { Exec, KubeConfig, PortForward, type V1Status } from '@kubernetes/client-node';
import { WebSocketServer } from 'ws';
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

function sink() {
  let text = '';
  return { w: new Writable({ write: (c: Buffer, _e, cb) => ((text += c.toString()), cb()) }), text: () => text };
}

test('pods/exec and pods/portforward upgrades reach the kubelet with the kubelet-client cert', async (t) => {
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

  const out = sink();
  const status = await new Promise<V1Status>((resolve, reject) => {
    new Exec(kc).exec('default', 'web', 'app', ['echo', 'hi'], out.w, null, null, false, resolve).catch(reject);
  });
  assert.equal(status.status, 'Success');
  assert.equal(out.text(), 'out:echo hi');
  assert.equal(kubelet.calls[0], '/exec/default/web/app?stdout=1&command=echo&command=hi cn=kube-apiserver-kubelet-client proto=v5.channel.k8s.io');

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
