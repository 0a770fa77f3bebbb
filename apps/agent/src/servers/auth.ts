/**
 * Authentication and authorization for the kubelet port, with the kubelet's meanings: a client certificate that
 * verifies against the client CA authenticates (user = CN, groups = O); else a bearer token (the console token,
 * then TokenReview); nothing presented is system:anonymous when anonymous auth is on, else 401; a certificate or
 * token that fails is 401. Then every request is authorized as nodes/<subresource> with a verb.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AuthorizationMode } from '../config/types.ts';
import { requestUrl } from './http-util.ts';

export interface UserInfo {
  name: string;
  groups: string[];
}

export type AuthnResult = { ok: true; user: UserInfo } | { ok: false; reason: 'Unauthorized'; message: string };

export interface RequestAttributes {
  user: UserInfo;
  verb: string;
  resource: 'nodes';
  name: string;
  subresource: string;
  path: string;
}

export type AuthzDecision = { allowed: true } | { allowed: false; reason: string };

export interface Authorizer {
  authorize(attrs: RequestAttributes): AuthzDecision | Promise<AuthzDecision>;
}

/** Bearer tokens (--authentication-token-webhook: TokenReview). */
export interface BearerAuthenticator {
  authenticate(token: string): Promise<{ ok: true; user: UserInfo } | { ok: false; message: string }>;
}

export const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

export function authenticate(req: IncomingMessage, anonymousAuth: boolean): AuthnResult {
  const socket = req.socket as TLSSocket;
  const cert = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
  const presented = cert !== undefined && Object.keys(cert).length > 0;
  if (presented) {
    if (!socket.authorized) {
      return { ok: false, reason: 'Unauthorized', message: `client certificate rejected: ${String(socket.authorizationError)}` };
    }
    const subject = cert.subject ?? {};
    const orgs = subject.O === undefined ? [] : Array.isArray(subject.O) ? subject.O : [subject.O];
    const cn = Array.isArray(subject.CN) ? subject.CN[0] : subject.CN;
    if (!cn) return { ok: false, reason: 'Unauthorized', message: 'client certificate has no common name' };
    return { ok: true, user: { name: cn, groups: [...orgs, 'system:authenticated'] } };
  }
  if (anonymousAuth) return { ok: true, user: ANONYMOUS };
  return { ok: false, reason: 'Unauthorized', message: 'no client certificate' };
}

const VERBS: Record<string, string> = { GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

export function requestAttributes(user: UserInfo, method: string, path: string, nodeName: string): RequestAttributes {
  let subresource = 'proxy';
  if (path.startsWith('/stats/') || path === '/stats') subresource = 'stats';
  else if (path.startsWith('/metrics')) subresource = 'metrics';
  else if (path.startsWith('/logs/') || path === '/logs') subresource = 'log';
  return { user, verb: VERBS[method] ?? method.toLowerCase(), resource: 'nodes', name: nodeName, subresource, path };
}

/** The kubelet's 403 body. */
export function forbiddenMessage(a: RequestAttributes): string {
  return `Forbidden (user=${a.user.name}, verb=${a.verb}, resource=${a.resource}, subresource(s)=[${a.subresource}])`;
}

export function createAuthorizer(mode: AuthorizationMode): Authorizer {
  switch (mode) {
    case 'AlwaysAllow':
      return { authorize: () => ({ allowed: true }) };
    case 'Webhook':
      // Configuration validation refuses Webhook at start; this is the safe answer if one is built anyway.
      return { authorize: () => ({ allowed: false, reason: 'Webhook authorization needs an API server' }) };
  }
}

export type GuardResult = { ok: true; user: UserInfo } | { ok: false; status: 401 | 403; message: string };

export interface GuardOptions {
  anonymousAuth: boolean;
  authorizer: Authorizer;
  nodeName: string;
  /** --authentication-token-webhook (TokenReview). */
  tokens?: BearerAuthenticator;
  /** The console token (standalone sign-in) and the user it stands for. */
  consoleToken?: { matches(candidate: string): boolean; user: UserInfo };
}

/** The kubelet's auth filter: authenticate (401 "Unauthorized"), then authorize (403 with attributes). */
export function createRequestGuard(opts: GuardOptions) {
  return async (req: IncomingMessage): Promise<GuardResult> => {
    const authn = await authenticateRequest(req, opts);
    if (!authn.ok) return { ok: false, status: 401, message: 'Unauthorized' };
    const path = requestUrl(req).pathname;
    const attrs = requestAttributes(authn.user, req.method ?? 'GET', path, opts.nodeName);
    const decision = await opts.authorizer.authorize(attrs);
    if (!decision.allowed) return { ok: false, status: 403, message: forbiddenMessage(attrs) };
    return { ok: true, user: authn.user };
  };
}

export type RequestGuard = ReturnType<typeof createRequestGuard>;

/**
 * x509 first; then a bearer token (the console token, then the TokenReview webhook) when a token authenticator is
 * configured; then anonymous (if allowed). A certificate or bearer token that fails is 401, never anonymous (the
 * kubelet's delegating authenticator: a union of x509 and token, wrapped "fail on error" around anonymous).
 */
async function authenticateRequest(req: IncomingMessage, o: GuardOptions): Promise<AuthnResult> {
  const x509 = authenticate(req, false);
  if (x509.ok) return x509;
  const certFailed = x509.message !== 'no client certificate';
  const bearer = /^bearer(?:\s+(.*))?$/is.exec(req.headers.authorization ?? '');
  if (bearer && (o.consoleToken || o.tokens)) {
    const token = (bearer[1] ?? '').trim();
    if (!token || /\s/.test(token)) return { ok: false, reason: 'Unauthorized', message: 'invalid bearer token' };
    if (o.consoleToken?.matches(token)) return { ok: true, user: o.consoleToken.user };
    if (!o.tokens) return { ok: false, reason: 'Unauthorized', message: 'invalid bearer token' };
    const r = await o.tokens.authenticate(token);
    if (r.ok) return { ok: true, user: { name: r.user.name, groups: [...r.user.groups.filter((g) => g !== 'system:authenticated'), 'system:authenticated'] } };
    return { ok: false, reason: 'Unauthorized', message: r.message };
  }
  return certFailed ? x509 : authenticate(req, o.anonymousAuth);
}
