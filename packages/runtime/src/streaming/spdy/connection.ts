/**
 * The server side of a SPDY/3.1 connection over an upgraded socket, as the kubelet's streaming server uses it:
 * the client opens streams (SYN_STREAM, odd ids); each is answered with a SYN_REPLY and handed to `onStream` as
 * a Duplex (readable: the client's DATA until its FIN; writable: our DATA, `end()` sends FIN). PINGs are
 * echoed, RST_STREAM destroys a stream, GOAWAY or a socket close end everything. Flow control: once the peer
 * shows it does flow control (a WINDOW_UPDATE or SETTINGS INITIAL_WINDOW_SIZE), our DATA respects its windows
 * and we return window for what we receive; a peer that never does (as spdystream) is not throttled.
 */
import { Duplex } from 'node:stream';
import type { Duplex as Socket } from 'node:stream';
import { DEFAULT_WINDOW, encodeFrame, parseFrames, RST, SETTINGS_INITIAL_WINDOW_SIZE, type SpdyFrame } from './frames.ts';
import { HeaderCompressor, HeaderDecompressor, type HeaderMap } from './header-codec.ts';

const MAX_DATA_FRAME = 16_384;

export class SpdyStream extends Duplex {
  sendWindow: number;
  readonly pending: { data: Buffer; fin: boolean; cb: (err?: Error | null) => void }[] = [];
  constructor(
    private readonly conn: SpdyConnection,
    readonly id: number,
    readonly headers: HeaderMap,
    window: number,
  ) {
    super({ allowHalfOpen: true });
    this.sendWindow = window;
  }
  header(name: string): string | undefined {
    return this.headers.get(name.toLowerCase())?.[0];
  }
  override _read(): void {}
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.conn.queueData(this, chunk, false, cb);
  }
  override _final(cb: (err?: Error | null) => void): void {
    this.conn.queueData(this, Buffer.alloc(0), true, cb);
  }
  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.conn.forget(this, err !== null);
    cb(err);
  }
}

export class SpdyConnection {
  private buf: Buffer = Buffer.alloc(0);
  private readonly streams = new Map<number, SpdyStream>();
  private readonly inflate = new HeaderDecompressor();
  private readonly deflate = new HeaderCompressor();
  private lastStreamId = 0;
  private initialWindow = DEFAULT_WINDOW;
  private flowControlled = false;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly onStream: (s: SpdyStream) => void,
    private readonly onClose: () => void = () => undefined,
  ) {
    socket.on('data', (d: Buffer) => this.receive(d));
    socket.on('error', () => this.teardown());
    socket.on('close', () => this.teardown());
  }

  /** Send GOAWAY and end the socket once everything queued is written. */
  close(): void {
    if (this.closed) return;
    this.send({ type: 'goaway', lastGoodStreamId: this.lastStreamId, status: 0 });
    this.socket.end();
    this.teardown();
  }

  private receive(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    const parsed = parseFrames(this.buf);
    if (!parsed.ok) {
      this.send({ type: 'goaway', lastGoodStreamId: this.lastStreamId, status: 1 });
      this.socket.destroy();
      return;
    }
    this.buf = Buffer.from(parsed.rest);
    for (const f of parsed.frames) this.handle(f);
  }

  private handle(f: SpdyFrame): void {
    switch (f.type) {
      case 'syn_stream':
        return this.synStream(f);
      case 'data': {
        const s = this.streams.get(f.streamId);
        if (!s) return this.send({ type: 'rst_stream', streamId: f.streamId, status: RST.INVALID_STREAM });
        if (f.data.length > 0) {
          s.push(Buffer.from(f.data));
          if (this.flowControlled) this.send({ type: 'window_update', streamId: f.streamId, delta: f.data.length });
        }
        if (f.fin) s.push(null);
        return;
      }
      case 'rst_stream':
        this.streams.get(f.streamId)?.destroy();
        return;
      case 'settings':
        for (const e of f.entries) if (e.id === SETTINGS_INITIAL_WINDOW_SIZE) this.setInitialWindow(e.value);
        return;
      case 'window_update':
        return this.windowUpdate(f.streamId, f.delta);
      case 'ping':
        return this.send(f);
      case 'goaway':
        this.socket.end();
        return this.teardown();
      case 'headers': {
        if (!this.inflate.decompress(f.headerBlock).ok) return this.protocolError();
        if (f.fin) this.streams.get(f.streamId)?.push(null);
        return;
      }
      default:
        return;
    }
  }

  private synStream(f: Extract<SpdyFrame, { type: 'syn_stream' }>): void {
    const h = this.inflate.decompress(f.headerBlock);
    if (!h.ok) return this.protocolError();
    if (f.streamId <= this.lastStreamId || this.streams.has(f.streamId)) {
      return this.send({ type: 'rst_stream', streamId: f.streamId, status: RST.PROTOCOL_ERROR });
    }
    this.lastStreamId = f.streamId;
    const s = new SpdyStream(this, f.streamId, h.headers, this.initialWindow);
    this.streams.set(f.streamId, s);
    this.send({ type: 'syn_reply', streamId: f.streamId, fin: false, headerBlock: this.deflate.compress(new Map()) });
    if (f.fin) s.push(null);
    this.onStream(s);
  }

  private setInitialWindow(value: number): void {
    this.flowControlled = true;
    const delta = value - this.initialWindow;
    this.initialWindow = value;
    for (const s of this.streams.values()) {
      s.sendWindow += delta;
      this.pump(s);
    }
  }

  private windowUpdate(streamId: number, delta: number): void {
    this.flowControlled = true;
    const s = this.streams.get(streamId);
    if (!s) return; // stream 0 (session window) or a finished stream: nothing queued waits on it here
    s.sendWindow += delta;
    this.pump(s);
  }

  /** Queue DATA for a stream (our side); written as the peer's window allows. */
  queueData(s: SpdyStream, data: Buffer, fin: boolean, cb: (err?: Error | null) => void): void {
    if (this.closed) return cb(new Error('connection closed'));
    s.pending.push({ data, fin, cb });
    this.pump(s);
  }

  private pump(s: SpdyStream): void {
    while (s.pending.length > 0) {
      const w = s.pending[0]!;
      const room = this.flowControlled ? Math.min(s.sendWindow, MAX_DATA_FRAME) : MAX_DATA_FRAME;
      if (w.data.length > 0 && room <= 0) return;
      const n = Math.min(w.data.length, room);
      const last = n === w.data.length;
      this.send({ type: 'data', streamId: s.id, fin: last && w.fin, data: w.data.subarray(0, n) });
      s.sendWindow -= n;
      if (!last) {
        w.data = w.data.subarray(n);
        continue;
      }
      s.pending.shift();
      w.cb();
    }
  }

  /** A stream is gone: reset it on the wire when it ended abnormally. */
  forget(s: SpdyStream, abnormal: boolean): void {
    if (this.streams.get(s.id) !== s) return;
    this.streams.delete(s.id);
    for (const w of s.pending.splice(0)) w.cb(new Error('stream reset'));
    if (abnormal && !this.closed) this.send({ type: 'rst_stream', streamId: s.id, status: RST.CANCEL });
  }

  private send(f: SpdyFrame): void {
    if (!this.closed && this.socket.writable) this.socket.write(encodeFrame(f));
  }

  private protocolError(): void {
    this.send({ type: 'goaway', lastGoodStreamId: this.lastStreamId, status: 1 });
    this.socket.destroy();
  }

  private teardown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of [...this.streams.values()]) s.destroy();
    this.inflate.close();
    this.deflate.close();
    this.onClose();
  }
}
