/**
 * The client certificate manager's pairs reach the API client (@nodelet/core/apiclient over node:https) as the
 * kubelet's rotating transport: at start the stored pair replaces the kubeconfig's, and after a rotation later
 * requests present the new certificate while open connections (a watch) are closed to reconnect with it.
 * A local HTTPS server asking for client certificates records the one each request presented.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createApiClientFromKubeconfig, type ApiClient } from '@nodelet/core/apiclient';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { realClock } from '@nodelet/core/util';
import type { AgentConfig } from '../config/types.ts';
import type { Pki } from '../pki/ensure-pki.ts';
import { agentCertificateManagers } from './managers-agent.ts';
import { CertificateStore } from './store.ts';
import { rsaKeyPem, testCa, testLeaf } from './testing.ts';

const root = mkdtempSync(join(tmpdir(), 'nodelet-certwire-'));
const T0 = Math.floor(Date.now() / 1000) * 1000;
const ca = testCa(T0);
const key = rsaKeyPem();
const leaf = (serialHint: string) => testLeaf(ca, key, { commonName: 'system:node:n1', organizations: ['system:nodes', serialHint], notBeforeMs: T0 - 60_000, notAfterMs: T0 + 3600_000 });
const seenOrgs: string[] = [];
let server: Server;
let client: ApiClient;

before(async () => {
  server = createServer({ cert: ca.certPem, key: ca.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    const o = peer.subject?.O;
    seenOrgs.push(Array.isArray(o) ? o.join('+') : String(o));
    if (req.url?.includes('watch=true')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return; // held open until the client closes it
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const kubeconfig = join(root, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{ name: c, cluster: { server: "${url}", insecure-skip-tls-verify: true } }]\n` +
      `users: [{ name: u, user: { client-certificate-data: ${b64(leaf('kubeconfig'))}, client-key-data: ${b64(key)} } }]\n` +
      'contexts: [{ name: ctx, context: { cluster: c, user: u } }]\ncurrent-context: ctx\n',
  );
  const r = await createApiClientFromKubeconfig(kubeconfig, { clock: realClock });
  assert.ok(r.ok, r.ok ? '' : r.reason);
  client = r.client;
});

after(() => {
  client?.close();
  server?.closeAllConnections();
  server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('client certificate manager → API client', () => {
  it('presents the stored pair from the start, then each rotated pair; open watches reconnect', async () => {
    const certDir = join(root, 'pki');
    new CertificateStore({ pairNamePrefix: 'kubelet-client', certDirectory: certDir }).update(leaf('stored'), key);
    const config = { nodeName: 'n1', rootDir: root, certDir, kubeconfig: join(root, 'kubeconfig'), rotateCertificates: true, serverTLSBootstrap: false } as unknown as AgentConfig;
    const pki = { serving: { certPem: leaf('serving'), keyPem: key } } as unknown as Pki;
    const managers = await agentCertificateManagers(config, client, pki, {
      clock: new FakeClock(T0),
      logger: new RecordingLogger().logger,
      bindRequest: () => async () => leaf('rotated'),
      newKeyPem: () => key,
    });
    assert.ok(managers.client, 'a client manager with rotateCertificates and a kubeconfig');
    assert.equal(managers.serving, undefined, 'no serving manager without serverTLSBootstrap');

    await client.request({ method: 'GET', path: '/api/v1/nodes/n1' });
    assert.equal(seenOrgs.at(-1), 'system:nodes+stored');

    const watch = client.watch('/api/v1/pods', {}, () => {}, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(await managers.client?.rotateCerts(), true);
    const ended = await Promise.race([watch, new Promise<'still open'>((r) => setTimeout(() => r('still open'), 3000))]);
    assert.notEqual(ended, 'still open', 'the watch on the old connection ended (to reconnect with the new pair)');
    await client.request({ method: 'GET', path: '/api/v1/nodes/n1' });
    assert.equal(seenOrgs.at(-1), 'system:nodes+rotated');
    assert.equal(managers.status().client?.rotations, 1);
  });
});
