/**
 * Bootstrap tokens as kube-apiserver's bootstrap token authenticator (--enable-bootstrap-token-auth): a bearer
 * token `<id>.<secret>` (id [a-z0-9]{6}, secret [a-z0-9]{16}) authenticates as `system:bootstrap:<id>` in group
 * `system:bootstrappers` (+ the Secret's auth-extra-groups) when kube-system holds a Secret
 * `bootstrap-token-<id>` of type bootstrap.kubernetes.io/token with the same token-id and token-secret,
 * usage-bootstrap-authentication "true", no deletionTimestamp and an expiration (RFC 3339) not passed.
 * Anything else does not authenticate (the request falls through to the other authenticators, then 401).
 */
import { timingSafeEqual } from 'node:crypto';
import type { KubeObject } from '../resources.ts';
import type { UserInfo } from './authn.ts';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';

/** The user a bootstrap token stands for, or undefined. `secret(name)` reads a kube-system Secret. */
export function bootstrapTokenUser(token: string, secret: (name: string) => KubeObject | undefined, nowMs: number): UserInfo | undefined {
  const m = TOKEN.exec(token);
  if (!m) return undefined;
  const [, id, value] = m as unknown as [string, string, string];
  const s = secret(`bootstrap-token-${id}`);
  if (!s || s.metadata.deletionTimestamp || s.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !s.data) return undefined;
  const get = (k: string) => (s.data[k] === undefined ? '' : Buffer.from(String(s.data[k]), 'base64').toString('utf8'));
  const stored = Buffer.from(get('token-secret'));
  if (stored.length !== value.length || !timingSafeEqual(stored, Buffer.from(value))) return undefined;
  if (get('token-id') !== id) return undefined;
  const expiration = get('expiration');
  if (expiration && !(Date.parse(expiration) > nowMs)) return undefined;
  if (get('usage-bootstrap-authentication') !== 'true') return undefined;
  const extra = get('auth-extra-groups').split(',').map((g) => g.trim()).filter(Boolean);
  if (extra.some((g) => !/^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/.test(g))) return undefined;
  return { username: `system:bootstrap:${id}`, groups: ['system:bootstrappers', ...extra] };
}

/** The kube-system Secret for a token `<id>.<secret>` (what `kubeadm token create` writes). */
export function bootstrapTokenSecret(token: string, extraGroups: string[] = []): KubeObject {
  const m = TOKEN.exec(token);
  if (!m) throw new Error(`bootstrap token "${token}" is not of the form [a-z0-9]{6}.[a-z0-9]{16}`);
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${m[1]}`, namespace: 'kube-system' },
    type: BOOTSTRAP_TOKEN_SECRET_TYPE,
    data: {
      'token-id': b64(m[1]!),
      'token-secret': b64(m[2]!),
      'usage-bootstrap-authentication': b64('true'),
      'usage-bootstrap-signing': b64('true'),
      ...(extraGroups.length ? { 'auth-extra-groups': b64(extraGroups.join(',')) } : {}),
    },
  };
}
