/** The runtime's stream handlers: WebSocket exec / attach / port-forward and SPDY/3.1 sessions. */
import type { RuntimeContext } from '../runtime/context.ts';
import { wsExecIo } from './exec-io.ts';
import { runExecSession } from './exec-session.ts';
import { runPortForwardSession } from './port-forward-session.ts';
import { runSpdySession } from './spdy-session.ts';
import type { StreamHandlers } from './streaming-server.ts';

export function streamHandlers(ctx: RuntimeContext): StreamHandlers {
  return {
    exec: (ws, req) => runExecSession(ctx, wsExecIo(ws, req), req),
    portForward: (ws, req, url) => runPortForwardSession(ctx, ws, req, url),
    spdy: (socket, req, protocol) => runSpdySession(ctx, socket, req, protocol),
  };
}
