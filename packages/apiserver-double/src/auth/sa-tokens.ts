/**
 * Service-account tokens for TokenRequest (`serviceaccounts/<name>/token`): JWTs with the claims the real
 * issuer writes (iss, sub, aud, exp, iat, nbf, kubernetes.io{namespace, serviceaccount, pod}), signed HS256
 * with a per-double secret (the real one signs RS256 with the service-account key: not needed here).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '@nodelet/core/util';
import type { UserInfo } from './authn.ts';

export interface MintRequest {
  namespace: string;
  name: string;
  uid: string;
  audiences: string[];
  expirationSeconds: number;
  boundObjectRef?: { kind?: string; name?: string; uid?: string };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export class ServiceAccountTokens {
  private readonly secret = randomBytes(32);
  readonly issuer = 'https://kubernetes.default.svc.cluster.local';

  constructor(
    private readonly clock: Clock,
    /** Whether the service account (namespace/name with uid) still exists. */
    private readonly exists: (namespace: string, name: string, uid: string) => boolean,
  ) {}

  mint(req: MintRequest): { token: string; expirationTimestamp: number } {
    const now = Math.floor(this.clock.now() / 1000);
    const exp = now + req.expirationSeconds;
    const claims: Record<string, unknown> = {
      aud: req.audiences,
      exp,
      iat: now,
      nbf: now,
      iss: this.issuer,
      sub: `system:serviceaccount:${req.namespace}:${req.name}`,
      'kubernetes.io': {
        namespace: req.namespace,
        serviceaccount: { name: req.name, uid: req.uid },
        ...(req.boundObjectRef?.kind === 'Pod'
          ? { pod: { name: req.boundObjectRef.name, uid: req.boundObjectRef.uid } }
          : {}),
      },
    };
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
    const sig = createHmac('sha256', this.secret).update(unsigned).digest('base64url');
    return { token: `${unsigned}.${sig}`, expirationTimestamp: exp * 1000 };
  }

  verify(token: string, audiences?: string[]): { user: UserInfo; audiences: string[] } | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const want = createHmac('sha256', this.secret).update(`${parts[0]}.${parts[1]}`).digest();
    const got = Buffer.from(parts[2]!, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    const c = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as {
      aud: string[];
      exp: number;
      'kubernetes.io': { namespace: string; serviceaccount: { name: string; uid: string } };
    };
    if (c.exp * 1000 <= this.clock.now()) return undefined;
    const accepted = audiences?.length ? audiences : [this.issuer];
    const matched = c.aud.filter((a) => accepted.includes(a));
    if (matched.length === 0) return undefined;
    const k = c['kubernetes.io'];
    if (!this.exists(k.namespace, k.serviceaccount.name, k.serviceaccount.uid)) return undefined;
    return {
      user: {
        username: `system:serviceaccount:${k.namespace}:${k.serviceaccount.name}`,
        uid: k.serviceaccount.uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${k.namespace}`],
      },
      audiences: matched,
    };
  }
}
