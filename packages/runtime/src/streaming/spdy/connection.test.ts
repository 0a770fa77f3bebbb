/** The server side of a SPDY/3.1 connection, driven by the test client over a real upgraded socket. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { connectSpdy, type SpdyClient } from '../testing/spdy-client.ts';
import { SpdyConnection, type SpdyStream } from './connection.ts';
import type { SpdyFrame } from './frames.ts';

let server: Server;
let url = '';
const seen: string[] = [];

/** Echo server: every stream's data comes back on it; `end` (FIN) ends the echo. Header `mode: ten` writes 10 bytes. */
before(async () => {
  server = createServer();
  server.on('upgrade', (_req, socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: test\r\n\r\n');
    new SpdyConnection(socket, (s: SpdyStream) => {
      seen.push(`${s.id}:${s.header('streamType') ?? ''}`);
      if (s.header('mode') === 'ten') return void s.end(Buffer.from('0123456789'));
      s.pipe(s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

/** Resolve once `pred` holds, re-checked on every byte the client receives (no timers). */
function until(c: SpdyClient, pred: () => boolean): Promise<void> {
  if (pred()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!pred()) return;
      c.socket.off('data', check);
      resolve();
    };
    c.socket.on('data', () => setImmediate(check));
  });
}

test('a stream is answered with SYN_REPLY; data is echoed; the client FIN ends it with a FIN', async () => {
  const c = await connectSpdy(url, ['test']);
  assert.equal(c.protocol, 'test');
  const s = c.open({ streamType: 'stdin' });
  await s.replied;
  s.write('hello ');
  s.write('spdy');
  s.end();
  assert.equal(await s.ended, 'fin');
  assert.equal(s.text(), 'hello spdy');
  assert.ok(seen.includes(`${s.id}:stdin`));
  c.socket.destroy();
});

test('PING is echoed with its id; DATA on an unknown stream is refused with RST_STREAM INVALID_STREAM', async () => {
  const c = await connectSpdy(url, []);
  c.send({ type: 'ping', id: 7 });
  c.send({ type: 'data', streamId: 99, fin: false, data: Buffer.from('x') });
  await until(c, () => c.frames.some((f) => f.type === 'rst_stream'));
  assert.deepEqual(c.frames.filter((f) => f.type === 'ping' || f.type === 'rst_stream'), [
    { type: 'ping', id: 7 },
    { type: 'rst_stream', streamId: 99, status: 2 },
  ]);
  c.socket.destroy();
});

test('flow control: with the peer initial window at 4 bytes, DATA waits for WINDOW_UPDATE', async () => {
  const c = await connectSpdy(url, []);
  c.send({ type: 'settings', clear: false, entries: [{ flags: 0, id: 7, value: 4 }] });
  const s = c.open({ mode: 'ten' });
  const dataFrames = () => c.frames.filter((f): f is Extract<SpdyFrame, { type: 'data' }> => f.type === 'data');
  await until(c, () => s.data.length === 4);
  c.send({ type: 'ping', id: 1 });
  await until(c, () => c.frames.some((f) => f.type === 'ping'));
  assert.equal(s.text(), '0123', 'nothing beyond the window before the update');
  c.send({ type: 'window_update', streamId: s.id, delta: 100 });
  assert.equal(await s.ended, 'fin');
  assert.equal(s.text(), '0123456789');
  assert.deepEqual(dataFrames().map((f) => [f.data.length, f.fin]), [[4, false], [6, false], [0, true]]);
  c.socket.destroy();
});

test('a stream id that does not increase is refused (PROTOCOL_ERROR)', async () => {
  const c = await connectSpdy(url, []);
  const s = c.open({ streamType: 'a' });
  await s.replied;
  c.send({ type: 'data', streamId: s.id, fin: true, data: Buffer.alloc(0) });
  await s.ended;
  c.send({ type: 'syn_stream', streamId: s.id, associatedId: 0, priority: 0, fin: false, unidirectional: false, headerBlock: Buffer.alloc(0) });
  await until(c, () => c.frames.some((f) => f.type === 'rst_stream'));
  assert.deepEqual(c.frames.find((f) => f.type === 'rst_stream'), { type: 'rst_stream', streamId: s.id, status: 1 });
  c.socket.destroy();
});
