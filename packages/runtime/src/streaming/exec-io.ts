/**
 * The client side of an exec / attach session, independent of the transport: WebSocket channel protocol
 * (v5/v4/channel.k8s.io) or SPDY/3.1 streams (v4..channel.k8s.io, one stream per `streamType`).
 */
import type { WebSocket } from 'ws';
import { CLOSE, ERROR, errorStreamBody, frame, RESIZE, STDERR, STDIN, STDOUT, unframe, type V1StatusBody } from './channel-protocol.ts';

export interface TermSize {
  width: number;
  height: number;
}

export interface ExecIo {
  /** Output towards the client (undefined: the client did not ask for that stream). */
  stdout?: (d: Buffer) => void;
  stderr?: (d: Buffer) => void;
  /** The client's input; `end` when it closes stdin. */
  onStdin(data: (d: Buffer) => void, end: () => void): void;
  onResize(cb: (size: TermSize) => void): void;
  /** The client went away before `finish`. */
  onGone(cb: () => void): void;
  /** Report the final status and close the session. */
  finish(status: V1StatusBody): void;
}

/** Resize messages: JSON objects {"Width":W,"Height":H}, possibly several in one chunk (one per line). */
export function parseResize(text: string): TermSize[] {
  const out: TermSize[] = [];
  for (const m of text.matchAll(/\{[^{}]*\}/g)) {
    try {
      const v = JSON.parse(m[0]) as { Width?: unknown; Height?: unknown };
      if (typeof v.Width === 'number' && typeof v.Height === 'number') out.push({ width: v.Width, height: v.Height });
    } catch {
      // not JSON: ignored, as the kubelet logs and skips it
    }
  }
  return out;
}

export function wsExecIo(ws: WebSocket, want: { stdout: boolean; stderr: boolean }): ExecIo {
  const send = (channel: number) => (d: Buffer) => {
    if (ws.readyState === ws.OPEN) ws.send(frame(channel, d));
  };
  let finished = false;
  return {
    stdout: want.stdout ? send(STDOUT) : undefined,
    stderr: want.stderr ? send(STDERR) : undefined,
    onStdin(data, end) {
      ws.on('message', (msg: Buffer, isBinary: boolean) => {
        const m = unframe(isBinary ? msg : Buffer.from(msg));
        if (!m) return;
        if (m.channel === STDIN && m.data.length > 0) data(m.data);
        else if (m.channel === CLOSE && m.data[0] === STDIN) end();
      });
    },
    onResize(cb) {
      ws.on('message', (msg: Buffer) => {
        const m = unframe(Buffer.from(msg));
        if (m?.channel === RESIZE) for (const s of parseResize(m.data.toString())) cb(s);
      });
    },
    onGone(cb) {
      ws.once('close', () => finished || cb());
    },
    finish(status) {
      finished = true;
      if (ws.readyState !== ws.OPEN) return;
      // channel.k8s.io (v1) says nothing on success; v4 / v5 send the Status JSON.
      const body = errorStreamBody(ws.protocol, status);
      if (body === '') ws.close(1000);
      else ws.send(frame(ERROR, body), () => ws.close(1000));
    },
  };
}
