/**
 * A test client for the channel protocol: connects a WebSocket, collects every channel's bytes until the
 * server closes, and can write to a channel. Used by the runtime, agent and API-server-double tests.
 */
import { WebSocket, type ClientOptions } from 'ws';
import { CLOSE, frame } from '../channel-protocol.ts';

export interface ChannelSession {
  ws: WebSocket;
  protocol: string;
  /** Bytes received per channel (in arrival order). */
  channels: Map<number, Buffer>;
  write(channel: number, data: Buffer | string): void;
  /** v5: tell the server channel `ch` is done (stdin EOF). */
  closeChannel(ch: number): void;
  /** Resolves with the close code once the server closes. */
  closed: Promise<number>;
  text(channel: number): string;
}

export function openChannelSession(url: string, protocols: string[], opts: ClientOptions = {}): Promise<ChannelSession> {
  const ws = new WebSocket(url, protocols, { perMessageDeflate: false, ...opts });
  const channels = new Map<number, Buffer>();
  ws.on('message', (msg: Buffer) => {
    if (msg.length === 0) return;
    const ch = msg[0]!;
    channels.set(ch, Buffer.concat([channels.get(ch) ?? Buffer.alloc(0), msg.subarray(1)]));
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => reject(new Error(`upgrade refused: ${res.statusCode} ${body.trim()}`)));
    });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws, protocol: ws.protocol, channels, closed,
        write: (ch, data) => ws.send(frame(ch, data)),
        closeChannel: (ch) => ws.send(Buffer.from([CLOSE, ch])),
        text: (ch) => channels.get(ch)?.toString() ?? '',
      }),
    );
  });
}
