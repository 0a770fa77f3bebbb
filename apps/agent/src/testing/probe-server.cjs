// A test workload for probe integration tests and the probe latency bench (runs inside a pod, plain node):
// HTTP on $HTTP_PORT (/healthz: 200 while live, /ready: 200 while ready, /set?live=0&ready=1 flips them,
// /hook counts calls, e.g. from a lifecycle hook; /set answers the state),
// a bare TCP listener on $TCP_PORT, and a grpc.health.v1 Health/Check server over h2c on $GRPC_PORT
// (service "" follows the ready flag, "live" the live flag, "ok" is always SERVING, any other NOT_SERVING;
// SIGHUP flips ready, SIGUSR2 flips live, for pods without an HTTP port). Exits on SIGTERM.
'use strict';
const http = require('http');
const http2 = require('http2');
const net = require('net');

const state = { live: true, ready: process.env.READY !== '0', hooks: 0 };
const port = (name) => Number(process.env[name] || 0);

if (port('HTTP_PORT')) {
  http
    .createServer((req, res) => {
      const u = new URL(req.url, 'http://x');
      if (u.pathname === '/set') {
        for (const k of ['live', 'ready']) if (u.searchParams.has(k)) state[k] = u.searchParams.get(k) === '1';
        return res.end(JSON.stringify(state));
      }
      if (u.pathname === '/hook') {
        state.hooks++;
        return res.end(JSON.stringify(state));
      }
      if (u.pathname === '/healthz') return res.writeHead(state.live ? 200 : 500).end(state.live ? 'ok' : 'dead');
      if (u.pathname === '/ready') return res.writeHead(state.ready ? 200 : 503).end(state.ready ? 'ready' : 'not ready');
      res.writeHead(404).end();
    })
    .listen(port('HTTP_PORT'), () => console.log('http listening on', port('HTTP_PORT')));
}

if (port('TCP_PORT')) net.createServer((s) => s.end()).listen(port('TCP_PORT'), () => console.log('tcp listening on', port('TCP_PORT')));

if (port('GRPC_PORT')) {
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      if (headers[':path'] !== '/grpc.health.v1.Health/Check') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' }, { endStream: true });
        return;
      }
      const body = Buffer.concat(chunks).subarray(5);
      const service = body.length > 1 && body[0] === 0x0a ? body.subarray(2, 2 + body[1]).toString() : '';
      const serving = service === 'ok' || (service === '' && state.ready) || (service === 'live' && state.live);
      const msg = Buffer.from([0x08, serving ? 1 : 2]);
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.concat([Buffer.from([0, 0, 0, 0, msg.length]), msg]));
    });
  });
  server.listen(port('GRPC_PORT'), () => console.log('grpc listening on', port('GRPC_PORT')));
}

process.on('SIGHUP', () => (state.ready = !state.ready));
process.on('SIGUSR2', () => (state.live = !state.live));
process.on('SIGTERM', () => process.exit(0));
