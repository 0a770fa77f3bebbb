/** The console's own answers: JSON errors, the sign-in page, redirects, refused upgrades. No stack traces, no paths. */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { SIGN_IN_CSP, signInPage } from './sign-in.ts';

const COMMON = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy();
  const text = JSON.stringify(body);
  res.writeHead(status, { ...COMMON, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const sendError = (res: ServerResponse, status: number, error: string) => sendJson(res, status, { error });

export function sendSignIn(res: ServerResponse, status: number, next: string, message?: string, headers: Record<string, string> = {}): void {
  const html = signInPage(next, message);
  res.writeHead(status, { ...COMMON, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': SIGN_IN_CSP, 'content-length': Buffer.byteLength(html), ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : html);
}

export function redirect(res: ServerResponse, location: string, headers: Record<string, string> = {}): void {
  res.writeHead(303, { ...COMMON, location, 'content-length': 0, ...headers });
  res.end();
}

/** An upgrade refused with a status and a JSON reason, then the connection closed. */
export function rejectUpgrade(socket: Duplex, status: number, error: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** A malformed request the HTTP parser refused (or one that took too long): answered, never a crash. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ error: STATUS_CODES[status] });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
