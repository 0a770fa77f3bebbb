/**
 * A stand-in for apps/agent's 10250 API while developing the console: tRPC at /trpc and socket.io at
 * /socket.io with fake data (dev/mock-world.ts). HTTPS by default (PKI written to --pki-dir; the console needs only
 * its ca.crt); `--plain` serves plain HTTP. Every request needs `Authorization: Bearer <token>` with the token in
 * --token-file (default <pki-dir>/console.token, created when missing), as the agent's console token.
 *
 *   node --import tsx apps/web/dev/mock-agent.ts [--port 10250] [--pki-dir /tmp/nodelet-mock-pki] [--token-file f] [--plain] [--tick-ms 3000]
 *     [--pods 110] (fill the node to that many pods) [--shutdown-after 60] (seconds: simulate a graceful node shutdown then;
 *     or now with `POST /mock/shutdown`)
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { parseArgs } from 'node:util';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { Server as SocketServer } from 'socket.io';
import type { EventFilter, NodeletEvent } from '@nodelet/agent/types';
import { createMockRouter } from './mock-router.ts';
import { createMockWorld, matches } from './mock-world.ts';
import { ensureMockPki } from './mock-pki.ts';
import { createMockProbes } from './mock-probes.ts';
import { createMockStats } from './mock-stats.ts';
import { createMockPressure } from './mock-pressure.ts';
import { createMockNodeExtras } from './mock-node-extras.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '10250' },
    'pki-dir': { type: 'string', default: '/tmp/nodelet-mock-pki' },
    'token-file': { type: 'string' },
    plain: { type: 'boolean', default: false },
    'tick-ms': { type: 'string', default: '3000' },
    pods: { type: 'string', default: '0' },
    'shutdown-after': { type: 'string' },
  },
});

const world = createMockWorld(undefined, { pods: Number(values.pods) });
const pressure = createMockPressure(world);
const shutdownAfter = values['shutdown-after'] ? Number.parseFloat(values['shutdown-after']) * 1000 : undefined;
const parts = {
  probes: createMockProbes(world), stats: createMockStats(), pressure,
  extras: createMockNodeExtras(world, pressure, shutdownAfter === undefined ? {} : { shutdownAfterMs: shutdownAfter }),
};
const trpc = createHTTPHandler({ router: createMockRouter(world, parts), basePath: '/trpc/' });

const tokenFile = values['token-file'] ?? join(values['pki-dir'], 'console.token');
if (!existsSync(tokenFile)) {
  ensureMockPki(values['pki-dir']);
  writeFileSync(tokenFile, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
}
const token = Buffer.from(readFileSync(tokenFile, 'utf8').trim());
function authorized(req: IncomingMessage): boolean {
  const got = Buffer.from(/^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
  return got.length === token.length && timingSafeEqual(got, token);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (!authorized(req)) { res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized\n'); return; }
  if (req.url?.startsWith('/trpc/')) { trpc(req, res); return; }
  if (req.url === '/mock/shutdown' && req.method === 'POST') { parts.extras.startShutdown(); parts.extras.tick(); res.writeHead(202).end(); return; }
  if (req.url?.startsWith('/socket.io')) return; // socket.io handles it
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
}

const server = values.plain
  ? createHttpServer(handle)
  : createHttpsServer(ensureMockPki(values['pki-dir']), handle);

const io = new SocketServer(server, { path: '/socket.io', serveClient: false, allowRequest: (req, cb) => cb(null, authorized(req)) });
io.on('connection', (socket) => {
  let filter: EventFilter = {};
  socket.emit('nodelet:hello', { node: world.node(), seq: world.recent({}, 1)[0]?.seq ?? 0 });
  const off = world.subscribe((e: NodeletEvent) => { if (matches(e, filter)) socket.emit('nodelet:event', e); });
  socket.on('nodelet:subscribe', (f: EventFilter) => {
    filter = f ?? {};
    for (const e of world.recent(filter, 200)) socket.emit('nodelet:event', e);
  });
  // Metrics stream: the socket's watched keys (replaced on each subscribe), released on disconnect.
  const watches = new Map<string, () => void>();
  socket.on('nodelet:metrics:subscribe', (sub: { keys?: unknown }) => {
    const keys = Array.isArray(sub?.keys) ? sub.keys.filter((k): k is string => typeof k === 'string').slice(0, 64) : [];
    for (const [k, release] of watches) if (!keys.includes(k)) { release(); watches.delete(k); }
    for (const k of keys) if (!watches.has(k)) watches.set(k, parts.stats.watch(k, (key, sample) => socket.emit('nodelet:metrics', { key, sample })));
    console.log(`metrics: socket ${socket.id} watches [${keys.join(', ')}]; watched overall [${parts.stats.watched().join(', ')}]`);
  });
  socket.on('nodelet:probes', (o: { everyRun?: boolean }) => console.log(`probes: socket ${socket.id} everyRun=${o?.everyRun === true}`));
  socket.on('disconnect', () => {
    off();
    for (const release of watches.values()) release();
    watches.clear();
  });
});

const timer = setInterval(() => {
  world.tick();
  parts.probes.tick();
  parts.stats.sample();
  parts.pressure.tick();
}, Number(values['tick-ms']));
// The shutdown simulation moves every second whatever --tick-ms says (its countdowns are seconds).
const shutdownTimer = setInterval(() => parts.extras.tick(), 1_000);
server.listen(Number(values.port), '127.0.0.1', () => {
  console.log(`mock agent listening on ${values.plain ? 'http' : 'https'}://127.0.0.1:${values.port} (pki ${values['pki-dir']}, token in ${tokenFile})`);
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => { clearInterval(timer); clearInterval(shutdownTimer); io.close(); server.close(() => process.exit(0)); });
}
