/** The proxy against a real local TLS "agent" that requires the console's client certificate (port 0). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { ensureMockPki } from '../dev/mock-pki.ts';
import { createAgentProxy, type AgentProxy } from './agent-proxy.ts';
import { isAgentPath } from './config.ts';

let dir: string;
let agent: HttpsServer;
const consoles: Array<{ server: Server; proxy: AgentProxy }> = [];

function port(s: Server | HttpsServer): number {
  return (s.address() as AddressInfo).port;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nodelet-web-proxy-'));
  const pki = ensureMockPki(dir);
  agent = createHttpsServer({ ...pki, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    if (req.url?.startsWith('/trpc/sse')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n'); // and keep the stream open
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url, cn: peer.subject?.CN }));
  });
  agent.on('upgrade', (req, socket) => {
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

async function startConsole(agentUrl: string, pkiDir: string): Promise<number> {
  const proxy = createAgentProxy({ agentUrl: new URL(agentUrl), pkiDir });
  const server = createServer((req, res) => (isAgentPath(req.url) ? proxy.web(req, res) : res.writeHead(404).end()));
  server.on('upgrade', (req, socket, head) => proxy.ws(req, socket, head));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  consoles.push({ server, proxy });
  return port(server);
}

function get(p: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: p, path }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject).end();
  });
}

test('forwards /trpc with the console client certificate', async () => {
  const p = await startConsole(`https://127.0.0.1:${port(agent)}`, dir);
  const r = await get(p, '/trpc/pods.list?batch=1');
  assert.equal(r.status, 200);
  assert.deepEqual(JSON.parse(r.body), { url: '/trpc/pods.list?batch=1', cn: 'nodelet-console' });
});

test('agent down or certificate missing → 502 JSON, server keeps serving', async () => {
  const down = await startConsole('https://127.0.0.1:1', dir);
  const r1 = await get(down, '/trpc/node.get');
  assert.equal(r1.status, 502);
  assert.match(JSON.parse(r1.body).error, /^agent unreachable: .*ECONNREFUSED/);
  const nopki = await startConsole(`https://127.0.0.1:${port(agent)}`, join(dir, 'missing'));
  const r2 = await get(nopki, '/socket.io/?EIO=4&transport=polling');
  assert.equal(r2.status, 502);
  assert.match(JSON.parse(r2.body).error, /^agent unreachable: cannot read client certificate/);
  assert.equal((await get(down, '/trpc/node.get')).status, 502, 'still answering');
});

test('server-sent events stream through unbuffered', async () => {
  const p = await startConsole(`https://127.0.0.1:${port(agent)}`, dir);
  const first = await new Promise<{ res: IncomingMessage; chunk: string }>((resolve, reject) => {
    request({ host: '127.0.0.1', port: p, path: '/trpc/sse' }, (res) => res.once('data', (d) => resolve({ res, chunk: String(d) })))
      .on('error', reject)
      .end();
  });
  assert.equal(first.chunk, 'data: first\n\n', 'the first event arrives while the agent keeps the stream open');
  assert.equal(first.res.headers['x-accel-buffering'], 'no');
  first.res.destroy();
});

test('websocket upgrade on /socket.io is proxied', async () => {
  const p = await startConsole(`https://127.0.0.1:${port(agent)}`, dir);
  const echoed = await new Promise<string>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: p, path: '/socket.io/?EIO=4&transport=websocket', headers: { connection: 'Upgrade', upgrade: 'websocket' } });
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
});
