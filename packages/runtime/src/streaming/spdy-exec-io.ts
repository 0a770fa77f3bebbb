/**
 * Exec / attach over SPDY, as the kubelet's remotecommand server: after the upgrade the client opens one stream
 * per `streamType` header (error always; stdin, stdout, stderr as requested, stderr never with a tty; resize with
 * a tty from v3 on). Once all expected streams are there (within the creation timeout) the session runs. At the
 * end the status goes on the error stream (v4: a v1 Status JSON; older versions: the error text, nothing on
 * success), the streams are closed and the connection is closed.
 */
import { errorStreamBody, protocolVersion } from './channel-protocol.ts';
import { parseResize, type ExecIo } from './exec-io.ts';
import type { SpdyConnection, SpdyStream } from './spdy/connection.ts';

export const STREAM_CREATION_TIMEOUT_MS = 30_000;

export type StreamType = 'error' | 'stdin' | 'stdout' | 'stderr' | 'resize';

export function expectedStreams(protocol: string, io: { stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean }): StreamType[] {
  const v = protocolVersion(protocol);
  return [
    'error',
    ...(io.stdin ? ['stdin' as const] : []),
    ...(io.stdout ? ['stdout' as const] : []),
    ...(io.stderr && !io.tty ? ['stderr' as const] : []),
    ...(io.tty && v >= 3 ? ['resize' as const] : []),
  ];
}

/** Collects streams as the connection reports them; resolves once every expected one is open. */
export class StreamCollector {
  readonly streams = new Map<string, SpdyStream>();
  private waiter?: () => void;
  constructor(private readonly expected: StreamType[]) {}
  add(s: SpdyStream): void {
    const t = s.header('streamType') ?? '';
    if (!(this.expected as string[]).includes(t) || this.streams.has(t)) {
      s.destroy();
      return;
    }
    this.streams.set(t, s);
    if (this.complete()) this.waiter?.();
  }
  complete(): boolean {
    return this.expected.every((t) => this.streams.has(t));
  }
  wait(timeoutMs: number): Promise<boolean> {
    if (this.complete()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiter = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}

export function spdyExecIo(conn: SpdyConnection, streams: Map<string, SpdyStream>, protocol: string): ExecIo {
  const out = (t: StreamType) => {
    const s = streams.get(t);
    return s ? (d: Buffer) => void (s.writable && s.write(d)) : undefined;
  };
  let finished = false;
  for (const t of ['stdout', 'stderr', 'error'] as const) streams.get(t)?.resume(); // nothing comes in on these
  return {
    stdout: out('stdout'),
    stderr: out('stderr'),
    onStdin(data, end) {
      const s = streams.get('stdin');
      s?.on('data', data);
      s?.once('end', end);
    },
    onResize(cb) {
      let buf = '';
      streams.get('resize')?.on('data', (d: Buffer) => {
        buf += d.toString();
        const nl = buf.lastIndexOf('\n');
        const whole = nl >= 0 ? buf.slice(0, nl + 1) : /\}\s*$/.test(buf) ? buf : '';
        buf = buf.slice(whole.length);
        for (const size of parseResize(whole)) cb(size);
      });
    },
    onGone(cb) {
      streams.get('error')?.once('close', () => finished || cb());
    },
    finish(status) {
      finished = true;
      streams.get('stdout')?.end();
      streams.get('stderr')?.end();
      const err = streams.get('error');
      if (!err || !err.writable) return conn.close();
      err.end(errorStreamBody(protocol, status), () => conn.close());
    },
  };
}
