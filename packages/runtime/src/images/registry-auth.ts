/** Registry authentication: WWW-Authenticate challenges, bearer token requests, basic credentials. */
import type { RegistryAuth } from './types.ts';

export interface Challenge {
  scheme: 'bearer' | 'basic';
  params: Record<string, string>;
}

/** Parses `Bearer realm="...",service="...",scope="..."` (or `Basic realm="..."`). */
export function parseChallenge(header: string | null): Challenge | undefined {
  if (header === null) return undefined;
  const m = /^\s*(\w+)\s*(.*)$/s.exec(header);
  if (!m) return undefined;
  const scheme = m[1]!.toLowerCase();
  if (scheme !== 'bearer' && scheme !== 'basic') return undefined;
  const params: Record<string, string> = {};
  for (const p of m[2]!.matchAll(/(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : (p[3] ?? '');
  }
  return { scheme, params };
}

/** "Basic base64(user:pass)" from username/password or a pre-encoded auth string. */
export function basicHeader(auth: RegistryAuth | undefined): string | undefined {
  if (!auth) return undefined;
  if (auth.username !== undefined && auth.username !== '') {
    return 'Basic ' + Buffer.from(`${auth.username}:${auth.password ?? ''}`).toString('base64');
  }
  if (auth.auth !== undefined && auth.auth !== '') return `Basic ${auth.auth}`;
  return undefined;
}

export type TokenResult = { ok: true; token: string } | { ok: false; status: number; message: string };

/** Requests a bearer token from the challenge's realm (anonymous, basic, or OAuth2 refresh token). */
export async function fetchToken(
  fetchFn: typeof globalThis.fetch,
  challenge: Challenge,
  scope: string,
  auth: RegistryAuth | undefined,
  signal?: AbortSignal,
): Promise<TokenResult> {
  const realm = challenge.params.realm;
  if (realm === undefined || realm === '') return { ok: false, status: 0, message: 'bearer challenge without realm' };
  const service = challenge.params.service ?? '';
  let res: Response;
  if (auth?.identityToken) {
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: auth.identityToken, service, scope, client_id: 'nodelet' });
    res = await fetchFn(realm, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      ...(signal ? { signal } : {}),
    });
  } else {
    const url = new URL(realm);
    if (service !== '') url.searchParams.set('service', service);
    url.searchParams.set('scope', scope);
    const headers: Record<string, string> = {};
    const basic = basicHeader(auth);
    if (basic !== undefined) headers.authorization = basic;
    res = await fetchFn(url, { headers, ...(signal ? { signal } : {}) });
  }
  if (!res.ok) {
    await res.body?.cancel();
    return { ok: false, status: res.status, message: `fetching token from ${realm}: ${res.status} ${res.statusText}` };
  }
  const body = (await res.json().catch(() => ({}))) as { token?: unknown; access_token?: unknown };
  const token = typeof body.token === 'string' ? body.token : typeof body.access_token === 'string' ? body.access_token : '';
  if (token === '') return { ok: false, status: res.status, message: `no token in response from ${realm}` };
  return { ok: true, token };
}
