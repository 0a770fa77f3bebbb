/**
 * Signing in to the console: the small sign-in page (paste a token), the token check against the agent, and the
 * sign-in form's body. A token is accepted when the agent answers an authenticated read (`node.get` over tRPC)
 * with it: 401 (unknown token) and 403 (a user the agent refuses) refuse the sign-in with the agent's word.
 */
import { request } from 'node:https';
import { request as httpRequest, type IncomingMessage } from 'node:http';

export type TokenCheck = { ok: true } | { ok: false; status: 401 | 403 | 502; reason: string };
export type TokenChecker = (token: string) => Promise<TokenCheck>;

export const SIGN_IN_PATH = '/sign-in';
export const SIGN_OUT_PATH = '/sign-out';
const CHECK_PATH = '/trpc/node.get';

export function createTokenChecker(agentUrl: URL, readCa: () => string, timeoutMs = 10_000): TokenChecker {
  return (token) =>
    new Promise((resolve) => {
      let ca: string | undefined;
      if (agentUrl.protocol === 'https:') {
        try {
          ca = readCa();
        } catch {
          return resolve({ ok: false, status: 502, reason: "the agent's CA certificate is not readable yet" });
        }
      }
      const u = new URL(CHECK_PATH, agentUrl);
      const opts = { method: 'GET', headers: { authorization: `Bearer ${token}` }, agent: false as const, timeout: timeoutMs, ...(ca ? { ca } : {}) };
      const req = (u.protocol === 'https:' ? request : httpRequest)(u, opts, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => body.length < 2048 && (body += d));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve({ ok: true });
          if (status === 401) return resolve({ ok: false, status: 401, reason: 'the agent did not accept this token (401 Unauthorized)' });
          if (status === 403) return resolve({ ok: false, status: 403, reason: `the agent refuses this user: ${body.trim().slice(0, 300)}` });
          resolve({ ok: false, status: 502, reason: `the agent answered ${status}` });
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) => resolve({ ok: false, status: 502, reason: `agent unreachable: ${(err as NodeJS.ErrnoException).code ?? err.message}` }));
      req.end();
    });
}

/** Reads a request body up to `max` bytes; undefined when larger (the rest is discarded) or the client left. */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > max) {
      req.resume();
      return resolve(undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
    // A client that goes away mid-body: nothing to answer (a no-op once 'end' resolved).
    req.on('close', () => resolve(undefined));
  });
}

/** A local path to return to after sign-in (no open redirect): anything else is `/`. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\') || /[\u0000-\u001f]/.test(next)) return '/';
  return next.slice(0, 2000);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const SIGN_IN_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The sign-in page: a token field posting to /sign-in; no scripts. */
export function signInPage(next: string, message?: string): string {
  const msg = message ? `<p class="err" data-testid="sign-in-error">${escapeHtml(message)}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>nodelet console · sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px system-ui,sans-serif;background:#f5f7fa;color:#1f2933;display:grid;place-items:center;min-height:90vh}
form{background:#fff;border:1px solid #dde3ea;padding:24px 28px;border-radius:8px;width:min(440px,90vw)}h1{font-size:18px;margin:0 0 12px}
input[type=password]{width:100%;box-sizing:border-box;padding:8px;margin:8px 0 14px;border:1px solid #c5ced8;border-radius:4px}
button{padding:7px 16px;border:0;border-radius:4px;background:#2563eb;color:#fff;cursor:pointer}.err{color:#b91c1c}small{color:#616e7c}</style>
</head><body><form method="post" action="${SIGN_IN_PATH}" data-testid="sign-in-form">
<h1>◆ nodelet console</h1>${msg}
<label for="token">Token</label>
<input type="password" id="token" name="token" autocomplete="off" required autofocus>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">Sign in</button>
<p><small>The token URL printed by <code>npm start</code> signs you in directly. Standalone: the agent's
<code>console.token</code> under its root directory; with an API server: a cluster token (kubectl create token).</small></p>
</form></body></html>`;
}
