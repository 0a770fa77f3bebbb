/**
 * Authentication and authorization of the double, following kube-apiserver's rules: x509 client certs
 * (user = CN, groups = O), static bearer tokens (like --token-auth-file), service-account tokens minted by
 * TokenRequest; every authenticated user also gets `system:authenticated`. Authorization asks a policy
 * function with the request's attributes (the same attributes a SubjectAccessReview carries).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface AuthzAttributes {
  user: string;
  groups: string[];
  verb: string;
  /** Resource requests only. */
  resource?: string;
  subresource?: string;
  group?: string;
  namespace?: string;
  name?: string;
  /** Non-resource requests only. */
  path?: string;
}

export interface AuthzDecision {
  allowed: boolean;
  reason?: string;
}

export type AuthorizePolicy = (attrs: AuthzAttributes) => AuthzDecision;

/** Default policy: system:masters and system:nodes may do anything (a double, not the Node authorizer). */
export const defaultPolicy: AuthorizePolicy = (a) =>
  a.groups.includes('system:masters') || a.groups.includes('system:nodes')
    ? { allowed: true, reason: 'double: allowed by group' }
    : { allowed: false, reason: '' };

/** What the authenticator needs of the service-account token issuer (sa-tokens.ts ServiceAccountTokens). */
export interface ServiceAccountTokenVerifier {
  readonly issuer: string;
  verify(token: string, audiences?: string[]): { user: UserInfo; audiences: string[] } | undefined;
}

function withAuthenticated(u: UserInfo): UserInfo {
  return u.groups.includes('system:authenticated') ? u : { ...u, groups: [...u.groups, 'system:authenticated'] };
}

export class Authenticator {
  constructor(
    private readonly tokens: Map<string, UserInfo>,
    private readonly saTokens: ServiceAccountTokenVerifier,
    /** Bootstrap tokens (auth/bootstrap-tokens.ts), when the double accepts them. */
    private readonly bootstrapTokens?: (token: string) => UserInfo | undefined,
  ) {}

  /** The user a bearer token stands for, or undefined (TokenReview uses this too). */
  authenticateToken(token: string, audiences?: string[]): { user: UserInfo; audiences: string[] } | undefined {
    const fixed = this.tokens.get(token);
    if (fixed) return { user: withAuthenticated(fixed), audiences: audiences ?? [this.saTokens.issuer] };
    const bootstrap = this.bootstrapTokens?.(token);
    if (bootstrap) return { user: withAuthenticated(bootstrap), audiences: audiences ?? [this.saTokens.issuer] };
    const sa = this.saTokens.verify(token, audiences);
    return sa ? { user: withAuthenticated(sa.user), audiences: sa.audiences } : undefined;
  }

  authenticate(req: IncomingMessage): UserInfo | undefined {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) return this.authenticateToken(auth.slice(7).trim())?.user;
    const sock = req.socket as TLSSocket;
    if (typeof sock.getPeerCertificate === 'function' && sock.authorized) {
      const cert = sock.getPeerCertificate();
      const cn = cert?.subject?.CN;
      if (typeof cn === 'string' && cn) {
        const o = cert.subject.O as string | string[] | undefined;
        const groups = o === undefined ? [] : Array.isArray(o) ? o : [o];
        return withAuthenticated({ username: cn, groups });
      }
    }
    return undefined;
  }
}

/** The real Forbidden message: `pods "x" is forbidden: User "u" cannot get resource "pods" in API group "" ...`. */
export function forbiddenMessage(a: AuthzAttributes, reason?: string): string {
  const tail = reason ? `: ${reason}` : '';
  if (!a.resource) return `forbidden: User "${a.user}" cannot ${a.verb} path "${a.path}"${tail}`;
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const what = a.name ? `${qualified} "${a.name}"` : qualified;
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${what} is forbidden: User "${a.user}" cannot ${a.verb} resource "${res}" in API group "${a.group ?? ''}" ${scope}${tail}`;
}
