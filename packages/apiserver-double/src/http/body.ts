/** Request body reading and JSON responses. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errors, statusBody, type StatusBody } from '../status.ts';
import { decodeProtobufObject } from './protobuf.ts';

const MAX_BODY = 3 * 1024 * 1024;

/** The parsed body of a request, kept for the request log. */
export const parsedBodies = new WeakMap<IncomingMessage, unknown>();

export async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY) throw new ApiError({ ...errors.badRequest('request entity too large').status, code: 413 });
    chunks.push(c);
  }
  if (String(req.headers['content-type'] ?? '').startsWith('application/vnd.kubernetes.protobuf')) {
    let body: unknown;
    try {
      body = decodeProtobufObject(Buffer.concat(chunks));
    } catch (e) {
      throw errors.badRequest(`couldn't decode the protobuf body: ${(e as Error).message}`);
    }
    if (body === undefined)
      throw new ApiError(statusBody(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json (protobuf: CertificateSigningRequest only)'));
    parsedBodies.set(req, body);
    return body;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    const body: unknown = JSON.parse(text);
    parsedBodies.set(req, body);
    return body;
  } catch (e) {
    throw errors.badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendStatus(res: ServerResponse, s: StatusBody): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, s.code, s);
}
