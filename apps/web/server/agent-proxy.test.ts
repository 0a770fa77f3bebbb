/** The proxy against a local TLS agent stand-in that records what it gets (port 0). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { ensureMockPki } from '../dev/mock-pki.ts';
import type { AppRouter } from '../src/lib/app-router.ts';
import { createAgentProxy, forwardedHeaders, type AgentProxy } from './agent-proxy.ts';

let dir: string;
let agent: HttpsServer;
const seen: Array<{ url: string; headers: IncomingHttpHeaders; clientCert: boolean }> = [];
const consoles: Array<{ server: Server; proxy: AgentProxy }> = [];

const port = (s: Server | HttpsServer) => (s.address() as AddressInfo).port;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nodelet-web-proxy-'));
  const pki = ensureMockPki(dir);
  // Asks for a client certificate without requiring one: the console must not present any.
  agent = createHttpsServer({ ...pki, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const clientCert = Object.keys((req.socket as TLSSocket).getPeerCertificate()).length > 0;
    seen.push({ url: req.url ?? '', headers: req.headers, clientCert });
    if (req.url?.startsWith('/trpc/sse')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n'); // and keep the stream open
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'agent=1' });
    res.end(JSON.stringify({ url: req.url }));
  });
  agent.on('upgrade', (req, socket) => {
    seen.push({ url: `upgrade ${req.url}`, headers: req.headers, clientCert: false });
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    socket.on('data', (d) => socket.write(`echo:${String(d)}`));
  });
  await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
});

after(async () => {
  for (const c of consoles) {
    c.proxy.close();
    c.server.closeAllConnections();
    await new Promise((r) => c.server.close(r));
  }
  agent.closeAllConnections();
  await new Promise((r) => agent.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function startConsole(agentUrl: string, caFile: string): Promise<number> {
  const proxy = createAgentProxy({ agentUrl: new URL(agentUrl), caFile });
  const server = createServer((req, res) => proxy.web(req, res, { target: req.url ?? '/', token: 'user-token' }));
  server.on('upgrade', (req, socket, head) => proxy.ws(req, socket, head, { target: req.url ?? '/', token: 'user-token' }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  consoles.push({ server, proxy });
  return port(server);
}

function get(p: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: p, path, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    }).on('error', reject).end();
  });
}

test('forwards with the user token and no client certificate; untrusted browser headers and agent cookies are dropped', async () => {
  const p = await startConsole(`https://127.0.0.1:${port(agent)}`, join(dir, 'ca.crt'));
  const r = await get(p, '/trpc/pods.list?batch=1', { cookie: 's=1', authorization: 'Bearer forged', 'x-forwarded-for': '1.2.3.4', 'x-nodelet-csrf': '1', accept: 'application/json' });
  assert.equal(r.status, 200);
  assert.equal(r.headers['set-cookie'], undefined);
  const last = seen.at(-1);
  assert.equal(last?.url, '/trpc/pods.list?batch=1');
  assert.equal(last?.clientCert, false);
  assert.equal(last?.headers.authorization, 'Bearer user-token');
  assert.equal(last?.headers.accept, 'application/json');
  for (const k of ['cookie', 'x-forwarded-for', 'x-nodelet-csrf']) assert.equal(last?.headers[k], undefined, k);
});

test('forwardedHeaders', () => {
  const h = forwardedHeaders({ host: 'h', Cookie: 'a', 'X-Forwarded-Proto': 'https', 'Impersonate-Group': 'system:masters', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' } as IncomingHttpHeaders, 't');
  assert.deepEqual(h, { host: 'h', 'content-type': 'application/json', authorization: 'Bearer t' });
});

test('agent down or CA missing → 502 JSON without file paths, server keeps serving', async () => {
  const down = await startConsole('https://127.0.0.1:1', join(dir, 'ca.crt'));
  const r1 = await get(down, '/trpc/node.get');
  assert.equal(r1.status, 502);
  assert.match(JSON.parse(r1.body).error.message, /^agent unreachable: ECONNREFUSED/);
  // The console's tRPC client (also a single call and a batch, as the pages send them) shows that reason.
  const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `http://127.0.0.1:${down}/trpc` })] });
  await assert.rejects(client.node.get.query(), /^TRPCClientError: agent unreachable: ECONNREFUSED/);
  await assert.rejects(Promise.all([client.node.get.query(), client.pods.list.query()]), /agent unreachable: ECONNREFUSED/);
  const noCa = await startConsole(`https://127.0.0.1:${port(agent)}`, join(dir, 'missing', 'ca.crt'));
  const r2 = await get(noCa, '/socket.io/?EIO=4&transport=polling');
  assert.equal(r2.status, 502);
  assert.match(JSON.parse(r2.body).error.message, /^agent unreachable: cannot read the agent's CA certificate/);
  assert.doesNotMatch(r2.body, /\/tmp|missing/);
  assert.equal((await get(down, '/trpc/node.get')).status, 502, 'still answering');
});

test('server-sent events stream through unbuffered', async () => {
  const p = await startConsole(`https://127.0.0.1:${port(agent)}`, join(dir, 'ca.crt'));
  const first = await new Promise<{ res: IncomingMessage; chunk: string }>((resolve, reject) => {
    request({ host: '127.0.0.1', port: p, path: '/trpc/sse' }, (res) => res.once('data', (d) => resolve({ res, chunk: String(d) })))
      .on('error', reject)
      .end();
  });
  assert.equal(first.chunk, 'data: first\n\n', 'the first event arrives while the agent keeps the stream open');
  assert.equal(first.res.headers['x-accel-buffering'], 'no');
  first.res.destroy();
});

test('websocket upgrade on /socket.io is proxied with the user token', async () => {
  const p = await startConsole(`https://127.0.0.1:${port(agent)}`, join(dir, 'ca.crt'));
  const echoed = await new Promise<string>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: p, path: '/socket.io/?EIO=4&transport=websocket', headers: { connection: 'Upgrade', upgrade: 'websocket', cookie: 's=1' } });
    req.on('upgrade', (res, socket) => {
      assert.equal(res.statusCode, 101);
      socket.once('data', (d) => {
        resolve(String(d));
        socket.destroy();
      });
      socket.write('hi');
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(echoed, 'echo:hi');
  const up = seen.at(-1);
  assert.equal(up?.url, 'upgrade /socket.io/?EIO=4&transport=websocket');
  assert.equal(up?.headers.authorization, 'Bearer user-token');
  assert.equal(up?.headers.cookie, undefined);
});
