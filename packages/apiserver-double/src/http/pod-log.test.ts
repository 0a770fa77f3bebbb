// Integration: GET pods/<name>/log through the double to a fake kubelet HTTPS endpoint, as kube-apiserver does.
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { test, type TestContext } from 'node:test';
import { CoreV1Api, KubeConfig, Log } from '@kubernetes/client-node';
import { PassThrough } from 'node:stream';
import { startApiServerDouble } from '../server.ts';
import { rawRequest, statusOf, waitFor } from '../testing/wait.ts';

interface KubeletCall {
  path: string;
  query: string;
  clientCN?: string;
}

/** A fake kubelet serving /containerLogs with a cert from the double's CA, requiring client certs. */
async function fakeKubelet(t: TestContext, issue: Awaited<ReturnType<typeof startApiServerDouble>>['issueCert'], ca: string) {
  const calls: KubeletCall[] = [];
  const serving = issue({ commonName: 'node-1', usage: 'server', ips: ['127.0.0.1'] });
  const server = https.createServer({ ...serving, ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    const cn = peer?.subject?.CN;
    calls.push({ path: url.pathname, query: url.search, clientCN: Array.isArray(cn) ? cn[0] : cn });
    if (url.pathname === '/containerLogs/default/web/missing') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('container "missing" not found in pod');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('line 1\n');
    if (url.searchParams.get('follow') === 'true') {
      res.write('line 2\n');
      setImmediate(() => res.end('line 3\n'));
    } else res.end('line 2\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }));
  return { calls, port: (server.address() as AddressInfo).port };
}

test('pod log proxies to the kubelet with the apiserver kubelet-client cert and forwards the options', async (t) => {
  const double = await startApiServerDouble();
  t.after(() => double.stop());
  const kubelet = await fakeKubelet(t, double.issueCert, double.ca);
  double.store.put({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-1' },
    status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: kubelet.port } } },
  });
  double.store.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'a' }, { name: 'side', image: 'b' }] },
  });
  const kc = new KubeConfig();
  kc.loadFromFile(double.adminKubeconfig());
  const core = kc.makeApiClient(CoreV1Api);

  const text = await core.readNamespacedPodLog({ name: 'web', namespace: 'default', container: 'app', tailLines: 10, timestamps: true });
  assert.equal(text, 'line 1\nline 2\n');
  assert.deepEqual(kubelet.calls[0], {
    path: '/containerLogs/default/web/app',
    query: '?timestamps=true&tailLines=10',
    clientCN: 'kube-apiserver-kubelet-client',
  });

  const out = new PassThrough();
  let followed = '';
  out.on('data', (c: Buffer) => (followed += c.toString()));
  await new Log(kc).log('default', 'web', 'side', out, { follow: true });
  await waitFor(() => followed.includes('line 3'), 'followed log');
  assert.equal(kubelet.calls[1]?.path, '/containerLogs/default/web/side');
  assert.match(kubelet.calls[1]?.query ?? '', /follow=true/);

  const noContainer = statusOf(await core.readNamespacedPodLog({ name: 'web', namespace: 'default' }).catch((e: unknown) => e));
  assert.deepEqual([noContainer.code, noContainer.message], [400, 'a container name must be specified for pod web, choose one of: [app side]']);
  const bad = statusOf(await core.readNamespacedPodLog({ name: 'web', namespace: 'default', container: 'nope' }).catch((e: unknown) => e));
  assert.deepEqual([bad.code, bad.message], [400, 'container nope is not valid for pod web']);
  assert.equal(kubelet.calls.length, 2, 'validation errors never reach the kubelet');

  const exec = await rawRequest(double, 'POST', '/api/v1/namespaces/default/pods/web/exec?command=ls&container=app');
  assert.equal(exec.status, 400, 'pods/exec without a WebSocket upgrade (see pod-stream.test.ts for the upgrade)');
  assert.equal(exec.json.message, 'Upgrade request required');
});
