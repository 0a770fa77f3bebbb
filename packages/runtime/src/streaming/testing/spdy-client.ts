/**
 * A test SPDY/3.1 client (the kubectl side): upgrades a URL with `Upgrade: SPDY/3.1` and the offered
 * X-Stream-Protocol-Version values, then opens streams with headers, writes to them and collects what the server
 * sends per stream until it finishes. Used by the runtime, agent and API-server-double tests.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { encodeFrame, parseFrames, type SpdyFrame } from '../spdy/frames.ts';
import { HeaderCompressor, HeaderDecompressor } from '../spdy/header-codec.ts';

export interface ClientStream {
  id: number;
  data: Buffer;
  /** Resolves when the server replied (SYN_REPLY). */
  replied: Promise<void>;
  /** Resolves when the server finished the stream (FIN) or reset it ('reset'). */
  ended: Promise<'fin' | 'reset'>;
  write(d: Buffer | string): void;
  end(): void;
  text(): string;
}

export interface SpdyClient {
  protocol: string;
  socket: Duplex;
  frames: SpdyFrame[];
  open(headers: Record<string, string>, opts?: { fin?: boolean }): ClientStream;
  send(f: SpdyFrame): void;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
}

export type Refused = { status: number; body: string };

export function connectSpdy(url: string, protocols: string[], opts: RequestOptions & { method?: string } = {}): Promise<SpdyClient> {
  const u = new URL(url);
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string | string[]> = { ...(opts.headers as Record<string, string>), connection: 'Upgrade', upgrade: 'SPDY/3.1' };
  if (protocols.length > 0) headers['x-stream-protocol-version'] = protocols;
  return new Promise((resolve, reject) => {
    const req = send(u, { method: opts.method ?? 'POST', ...opts, headers });
    req.on('upgrade', (res: IncomingMessage, socket: Duplex, head: Buffer) => {
      resolve(client(String(res.headers['x-stream-protocol-version'] ?? ''), socket, head));
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}: ${body}`), { status: res.statusCode, body })));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A SPDY client on an already upgraded byte stream (e.g. SPDY tunnelled in a WebSocket). */
export function client(protocol: string, socket: Duplex, head: Buffer = Buffer.alloc(0)): SpdyClient {
  const deflate = new HeaderCompressor();
  const inflate = new HeaderDecompressor();
  const streams = new Map<number, { s: ClientStream; reply: () => void; end: (how: 'fin' | 'reset') => void }>();
  const frames: SpdyFrame[] = [];
  let nextId = 1;
  let buf = Buffer.alloc(0);
  const write = (f: SpdyFrame) => socket.writable && socket.write(encodeFrame(f));
  const onFrame = (f: SpdyFrame) => {
    frames.push(f);
    if (f.type === 'syn_reply') {
      inflate.decompress(f.headerBlock);
      streams.get(f.streamId)?.reply();
    } else if (f.type === 'data') {
      const e = streams.get(f.streamId);
      if (!e) return;
      e.s.data = Buffer.concat([e.s.data, f.data]);
      if (f.fin) e.end('fin');
    } else if (f.type === 'rst_stream') streams.get(f.streamId)?.end('reset');
  };
  const onData = (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    const p = parseFrames(buf);
    if (!p.ok) return void socket.destroy();
    buf = Buffer.from(p.rest);
    p.frames.forEach(onFrame);
  };
  socket.on('data', onData);
  if (head.length > 0) onData(head);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return {
    protocol,
    socket,
    frames,
    send: write,
    closed,
    open(headers, opts = {}) {
      const id = nextId;
      nextId += 2;
      let reply!: () => void;
      let end!: (how: 'fin' | 'reset') => void;
      const s: ClientStream = {
        id,
        data: Buffer.alloc(0),
        replied: new Promise<void>((r) => (reply = r)),
        ended: new Promise<'fin' | 'reset'>((r) => (end = r)),
        write: (d) => void write({ type: 'data', streamId: id, fin: false, data: Buffer.from(d) }),
        end: () => void write({ type: 'data', streamId: id, fin: true, data: Buffer.alloc(0) }),
        text: () => s.data.toString(),
      };
      streams.set(id, { s, reply, end });
      const block = deflate.compress(new Map(Object.entries(headers).map(([k, v]) => [k, [v]])));
      write({ type: 'syn_stream', streamId: id, associatedId: 0, priority: 0, fin: opts.fin ?? false, unidirectional: false, headerBlock: block });
      return s;
    },
  };
}
