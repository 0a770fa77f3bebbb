/**
 * The kubelet's token manager: serviceAccountToken projections through the TokenRequest API
 * (POST /api/v1/namespaces/<ns>/serviceaccounts/<sa>/token, bound to the pod), cached per
 * (namespace, service account, audiences, expiration, pod) and requested again once 80 % of the token's
 * lifetime has passed or it is older than 24 h. A failed refresh keeps serving a still-valid cached token.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import type { Clock } from '../util/clock.ts';
import { isApiPod, staticPodRefusal, type ObjectResult, type ServiceAccountToken, type TokenRequestSpec, type TokenSource } from './types.ts';

export const MAX_TOKEN_TTL_MS = 24 * 3600_000;
export const DEFAULT_EXPIRATION_SECONDS = 3600;
export const MIN_EXPIRATION_SECONDS = 600;

interface Cached extends ServiceAccountToken {
  /** ms: when it was issued (expiration - requested lifetime). */
  issuedAt: number;
  lifetimeMs: number;
  podUid: string;
}

export interface TokenManagerDeps {
  clock: Clock;
  api?: ApiClient;
}

/** Whether a cached token must be requested again at `now` (80 % of its lifetime, or 24 h). */
export function requiresRefresh(t: Pick<Cached, 'issuedAt' | 'lifetimeMs' | 'expirationTimestamp'>, now: number): boolean {
  if (now >= t.issuedAt + MAX_TOKEN_TTL_MS) return true;
  return now >= t.expirationTimestamp - t.lifetimeMs * 0.2;
}

export class TokenManager implements TokenSource {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly deps: TokenManagerDeps) {}

  async getServiceAccountToken(pod: V1Pod, spec: TokenRequestSpec): Promise<ObjectResult<ServiceAccountToken>> {
    if (!isApiPod(pod)) return { ok: false, notFound: false, message: staticPodRefusal('serviceaccounts') };
    const m = pod.metadata ?? {};
    const ns = m.namespace ?? 'default';
    const sa = pod.spec?.serviceAccountName || pod.spec?.serviceAccount || 'default';
    const key = JSON.stringify([ns, sa, [...spec.audiences].sort(), spec.expirationSeconds, m.uid ?? '']);
    const now = this.deps.clock.now();
    const cached = this.cache.get(key);
    if (cached && !requiresRefresh(cached, now)) return { ok: true, object: cached };
    const fresh = await this.request(ns, sa, pod, spec);
    if (fresh.ok) {
      const lifetimeMs = spec.expirationSeconds * 1000;
      const t = fresh.object;
      this.cache.set(key, { ...t, issuedAt: t.expirationTimestamp - lifetimeMs, lifetimeMs, podUid: m.uid ?? '' });
      return fresh;
    }
    if (cached && now < cached.expirationTimestamp) return { ok: true, object: cached };
    return fresh;
  }

  deleteServiceAccountToken(podUid: string): void {
    for (const [k, v] of this.cache) if (v.podUid === podUid) this.cache.delete(k);
  }

  /** Drops expired tokens (the kubelet does this every minute). */
  cleanup(): void {
    const now = this.deps.clock.now();
    for (const [k, v] of this.cache) if (now >= v.expirationTimestamp) this.cache.delete(k);
  }

  get size(): number {
    return this.cache.size;
  }

  private async request(ns: string, sa: string, pod: V1Pod, spec: TokenRequestSpec): Promise<ObjectResult<ServiceAccountToken>> {
    const api = this.deps.api;
    const fail = (message: string, notFound = false) => ({ ok: false as const, notFound, message });
    if (!api) return fail(`failed to fetch token: no API client`);
    const body = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {
        audiences: spec.audiences,
        expirationSeconds: spec.expirationSeconds,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' },
      },
    };
    const path = `/api/v1/namespaces/${encodeURIComponent(ns)}/serviceaccounts/${encodeURIComponent(sa)}/token`;
    const r = await api.request<{ status?: { token?: string; expirationTimestamp?: string } }>({ method: 'POST', path, body });
    if (!r.ok) return fail(`failed to fetch token: ${r.message}`, r.status === 404);
    const token = r.body.status?.token;
    const exp = Date.parse(r.body.status?.expirationTimestamp ?? '');
    if (!token || !Number.isFinite(exp)) return fail('failed to fetch token: the TokenRequest has no status.token');
    return { ok: true, object: { token, expirationTimestamp: exp } };
  }
}
