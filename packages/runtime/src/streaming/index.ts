/**
 * @nodelet/runtime/streaming: the CRI streaming server (exec/attach/port-forward over WebSocket channels and
 * SPDY) and its wire pieces, which the agent's proxy and the API-server double reuse.
 */
export { ERROR, frame, STDOUT } from './channel-protocol.ts';
export { startStreamingServer, type StreamingServer } from './streaming-server.ts';
export { SpdyConnection } from './spdy/connection.ts';
