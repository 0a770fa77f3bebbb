/**
 * A raw HTTP/1.1 client for the console's tests: the request line is sent byte for byte (no URL normalisation by
 * a client library), so traversal and escape forms reach the server exactly as an attacker would send them.
 */
import { connect } from 'node:net';

export interface RawRequest {
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Resolve once the response head arrived (streams such as SSE), closing the connection. */
  headOnly?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < body.length) {
    const eol = body.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(body.subarray(i, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(body.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** One request on its own connection (`connection: close`); an upgrade answered 101 is closed right away. */
export function rawRequest(port: number, r: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const headers = { host: `127.0.0.1:${port}`, ...(r.headers ?? {}) };
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'connection')) Object.assign(headers, { connection: 'close' });
    if (r.body !== undefined) Object.assign(headers, { 'content-length': String(Buffer.byteLength(r.body)) });
    const head = `${r.method ?? 'GET'} ${r.target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    const finish = () => {
      const all = Buffer.concat(chunks);
      const sep = all.indexOf('\r\n\r\n');
      if (sep < 0) return reject(new Error(`no response head (${all.length} bytes): ${all.toString('latin1').slice(0, 200)}`));
      const [statusLine = '', ...lines] = all.subarray(0, sep).toString('latin1').split('\r\n');
      const h: Record<string, string> = {};
      for (const l of lines) {
        const c = l.indexOf(':');
        if (c > 0) h[l.slice(0, c).trim().toLowerCase()] = l.slice(c + 1).trim();
      }
      let body: Buffer = all.subarray(sep + 4);
      if (h['transfer-encoding'] === 'chunked') body = dechunk(body);
      resolve({ status: Number(statusLine.split(' ')[1]), headers: h, body: body.toString('utf8') });
    };
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`timeout: ${r.method ?? 'GET'} ${r.target}`)));
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      if ((r.headOnly || /^HTTP\/1\.1 101 /.test(all.toString('latin1', 0, 20))) && all.includes('\r\n\r\n')) {
        socket.destroy();
      }
    });
    socket.on('close', () => (chunks.length ? finish() : reject(new Error(`connection closed without a response: ${r.target}`))));
    socket.on('error', (err) => (chunks.length ? undefined : reject(err)));
    socket.write(head);
    if (r.body !== undefined) socket.write(r.body);
  });
}

export const upgradeHeaders = (extra: Record<string, string> = {}) => ({
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  ...extra,
});
