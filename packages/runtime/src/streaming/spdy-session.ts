/**
 * A SPDY/3.1 session on an upgraded socket: the connection and the per-kind stream handling (exec / attach:
 * spdy-exec-io.ts, port-forward: spdy-port-forward.ts).
 */
import type { Duplex } from 'node:stream';
import type { RuntimeContext } from '../runtime/context.ts';
import { failureStatus } from './channel-protocol.ts';
import { runExecSession } from './exec-session.ts';
import { SpdyConnection } from './spdy/connection.ts';
import { expectedStreams, spdyExecIo, StreamCollector, STREAM_CREATION_TIMEOUT_MS } from './spdy-exec-io.ts';
import { spdyPortForward } from './spdy-port-forward.ts';
import type { StreamRequest } from './streaming-server.ts';

export function runSpdySession(ctx: RuntimeContext, socket: Duplex, req: StreamRequest, protocol: string, timeoutMs = STREAM_CREATION_TIMEOUT_MS): void {
  if (req.kind === 'portforward') {
    const pf = spdyPortForward(ctx, req);
    new SpdyConnection(socket, (s) => pf.onStream(s), () => pf.close());
    return;
  }
  const collector = new StreamCollector(expectedStreams(protocol, req));
  let gone = false;
  const conn = new SpdyConnection(socket, (s) => collector.add(s), () => (gone = true));
  void collector.wait(timeoutMs).then((complete) => {
    if (gone) return;
    const io = spdyExecIo(conn, collector.streams, protocol);
    if (!complete) return io.finish(failureStatus('timed out waiting for client to create streams'));
    runExecSession(ctx, io, req);
  });
}
