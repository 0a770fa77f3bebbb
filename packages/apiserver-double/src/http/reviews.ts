/**
 * Create-only review APIs and TokenRequest: authentication.k8s.io/v1 TokenReview, authorization.k8s.io/v1
 * SubjectAccessReview (decided by the configured policy and recorded), and serviceaccounts/<name>/token.
 */
import type { Authenticator, AuthorizePolicy, AuthzAttributes } from '../auth/authn.ts';
import type { ServiceAccountTokens } from '../auth/sa-tokens.ts';
import type { KubeObject } from '../resources.ts';
import { kubeTime, type Registry } from '../store/registry.ts';
import { errors } from '../status.ts';
import { checkBoundObject } from './token-binding.ts';

export interface RecordedAccessReview {
  attributes: AuthzAttributes;
  allowed: boolean;
  reason?: string;
}

export function tokenReview(authn: Authenticator, body: KubeObject): KubeObject {
  const token = String(body.spec?.token ?? '');
  const audiences = Array.isArray(body.spec?.audiences) && body.spec.audiences.length ? (body.spec.audiences as string[]) : undefined;
  const result = token ? authn.authenticateToken(token, audiences) : undefined;
  const status = result
    ? { authenticated: true, user: result.user, audiences: result.audiences }
    : { authenticated: false, user: {}, error: '[invalid bearer token, token lookup failed]' };
  return {
    kind: 'TokenReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: body.spec ?? {},
    status,
  };
}

export function subjectAccessReview(policy: AuthorizePolicy, body: KubeObject, record: RecordedAccessReview[]): KubeObject {
  const spec = body.spec ?? {};
  if (!spec.user && !(spec.groups ?? []).length)
    throw errors.invalid('SubjectAccessReview', 'authorization.k8s.io', '', [
      { field: 'spec.user', type: 'FieldValueInvalid', message: 'Invalid value: "": at least one of user or group must be specified' },
    ]);
  const ra = spec.resourceAttributes ?? {};
  const nra = spec.nonResourceAttributes;
  const attributes: AuthzAttributes = nra
    ? { user: spec.user ?? '', groups: spec.groups ?? [], verb: nra.verb ?? '', path: nra.path ?? '' }
    : {
        user: spec.user ?? '',
        groups: spec.groups ?? [],
        verb: ra.verb ?? '',
        resource: ra.resource ?? '',
        subresource: ra.subresource || undefined,
        group: ra.group ?? '',
        namespace: ra.namespace || undefined,
        name: ra.name || undefined,
      };
  const d = policy(attributes);
  record.push({ attributes, allowed: d.allowed, reason: d.reason });
  return {
    kind: 'SubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec,
    status: { allowed: d.allowed, ...(d.reason ? { reason: d.reason } : {}) },
  };
}

export function tokenRequest(reg: Registry, tokens: ServiceAccountTokens, ns: string, saName: string, body: KubeObject, now: number): KubeObject {
  const sa = reg.get(reg.resource('', 'serviceaccounts'), ns, saName);
  const spec = body.spec ?? {};
  checkBoundObject(reg, ns, saName, spec.boundObjectRef);
  const expirationSeconds = Number(spec.expirationSeconds ?? 3600);
  if (expirationSeconds < 600)
    throw errors.invalid('TokenRequest', 'authentication.k8s.io', saName, [
      { field: 'spec.expirationSeconds', type: 'FieldValueInvalid', message: `Invalid value: ${expirationSeconds}: may not specify a duration less than 10 minutes` },
    ]);
  const audiences = Array.isArray(spec.audiences) && spec.audiences.length ? spec.audiences : [tokens.issuer];
  const minted = tokens.mint({
    namespace: ns,
    name: saName,
    uid: sa.metadata.uid,
    audiences,
    expirationSeconds,
    boundObjectRef: spec.boundObjectRef,
  });
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: saName, namespace: ns, creationTimestamp: kubeTime(now) },
    spec: { ...spec, audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token: minted.token, expirationTimestamp: kubeTime(minted.expirationTimestamp) },
  };
}
