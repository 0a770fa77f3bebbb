/**
 * The kubelet's delegated auth on 10250 (--authentication-token-webhook, --authorization-mode=Webhook):
 * bearer tokens checked with TokenReview (answers cached authentication.webhook.cacheTTL, 2 min), and every
 * request authorized with a SubjectAccessReview for resource nodes/<subresource>, name = node name (allowed
 * answers cached 5 min, denied 30 s). Transport errors are never cached and deny the request.
 */
import type { ApiClient } from '@nodelet/core/apiclient';
import type { Clock, Logger } from '@nodelet/core/util';
import type { AuthzDecision, RequestAttributes, UserInfo } from '../servers/auth.ts';

interface Cached<T> {
  value: T;
  expires: number;
}

/** A small TTL cache keyed by string, bounded (oldest dropped first). */
export class TtlCache<T> {
  private readonly map = new Map<string, Cached<T>>();
  constructor(
    private readonly clock: Clock,
    private readonly max = 4096,
  ) {}

  get(key: string): T | undefined {
    const c = this.map.get(key);
    if (!c) return undefined;
    if (c.expires <= this.clock.now()) {
      this.map.delete(key);
      return undefined;
    }
    return c.value;
  }

  set(key: string, value: T, ttlMs: number): void {
    this.map.delete(key);
    this.map.set(key, { value, expires: this.clock.now() + ttlMs });
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value ?? '');
  }
}

export type TokenAuthResult = { ok: true; user: UserInfo } | { ok: false; message: string };

export interface TokenAuthenticator {
  authenticate(token: string): Promise<TokenAuthResult>;
}

export interface AsyncAuthorizer {
  authorize(attrs: RequestAttributes): Promise<AuthzDecision>;
}

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; groups?: string[] };
  error?: string;
}

export function createTokenWebhook(deps: { client: ApiClient; clock: Clock; logger: Logger }, ttlMs = 120_000): TokenAuthenticator & { reviews: number } {
  const cache = new TtlCache<TokenAuthResult>(deps.clock);
  const self = {
    reviews: 0,
    async authenticate(token: string): Promise<TokenAuthResult> {
      const hit = cache.get(token);
      if (hit) return hit;
      self.reviews++;
      const r = await deps.client.request<{ status?: TokenReviewStatus }>({
        method: 'POST',
        path: '/apis/authentication.k8s.io/v1/tokenreviews',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
      });
      if (!r.ok) {
        deps.logger.warn('TokenReview failed', { reason: r.reason, err: r.message });
        return { ok: false, message: 'Unauthorized' };
      }
      const s = r.body.status ?? {};
      const out: TokenAuthResult =
        s.authenticated && s.user?.username
          ? { ok: true, user: { name: s.user.username, groups: [...(s.user.groups ?? [])] } }
          : { ok: false, message: s.error || 'token not authenticated' };
      cache.set(token, out, ttlMs);
      return out;
    },
  };
  return self;
}

interface SarStatus {
  allowed?: boolean;
  denied?: boolean;
  reason?: string;
}

export function createWebhookAuthorizer(
  deps: { client: ApiClient; clock: Clock; logger: Logger },
  ttl: { allowedMs: number; deniedMs: number } = { allowedMs: 300_000, deniedMs: 30_000 },
): AsyncAuthorizer & { reviews: number } {
  const cache = new TtlCache<AuthzDecision>(deps.clock);
  const self = {
    reviews: 0,
    async authorize(a: RequestAttributes): Promise<AuthzDecision> {
      const spec = {
        user: a.user.name,
        groups: a.user.groups,
        resourceAttributes: { namespace: '', verb: a.verb, group: '', version: 'v1', resource: a.resource, subresource: a.subresource, name: a.name },
      };
      const key = JSON.stringify(spec);
      const hit = cache.get(key);
      if (hit) return hit;
      self.reviews++;
      const r = await deps.client.request<{ status?: SarStatus }>({
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec },
      });
      if (!r.ok) {
        deps.logger.warn('SubjectAccessReview failed', { reason: r.reason, err: r.message });
        return { allowed: false, reason: `SubjectAccessReview failed: ${r.reason}` };
      }
      const s = r.body.status ?? {};
      const d: AuthzDecision = s.allowed && !s.denied ? { allowed: true } : { allowed: false, reason: s.reason ?? '' };
      cache.set(key, d, d.allowed ? ttl.allowedMs : ttl.deniedMs);
      return d;
    },
  };
  return self;
}
