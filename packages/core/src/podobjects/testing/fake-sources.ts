/** In-memory configMap / secret / token sources that record what was asked. */
import type { V1ConfigMap, V1Pod, V1Secret } from '@kubernetes/client-node';
import type { ObjectResult, PodObjectSource, ServiceAccountToken, TokenRequestSpec, TokenSource } from '../types.ts';

export class FakeObjects implements PodObjectSource {
  readonly configMaps = new Map<string, V1ConfigMap>();
  readonly secrets = new Map<string, V1Secret>();
  readonly calls: string[] = [];

  async getConfigMap(pod: V1Pod, name: string): Promise<ObjectResult<V1ConfigMap>> {
    const key = `${pod.metadata?.namespace ?? 'default'}/${name}`;
    this.calls.push(`configmap ${key}`);
    const o = this.configMaps.get(key);
    return o ? { ok: true, object: o } : { ok: false, notFound: true, message: `configmap "${name}" not found` };
  }

  async getSecret(pod: V1Pod, name: string): Promise<ObjectResult<V1Secret>> {
    const key = `${pod.metadata?.namespace ?? 'default'}/${name}`;
    this.calls.push(`secret ${key}`);
    const o = this.secrets.get(key);
    return o ? { ok: true, object: o } : { ok: false, notFound: true, message: `secret "${name}" not found` };
  }
}

export class FakeTokens implements TokenSource {
  readonly requests: TokenRequestSpec[] = [];
  readonly deleted: string[] = [];
  fail: string | undefined;

  async getServiceAccountToken(pod: V1Pod, spec: TokenRequestSpec): Promise<ObjectResult<ServiceAccountToken>> {
    this.requests.push(spec);
    if (this.fail) return { ok: false, notFound: false, message: this.fail };
    return { ok: true, object: { token: `token-for-${pod.spec?.serviceAccountName ?? 'default'}-${spec.audiences.join(',')}`, expirationTimestamp: 0 } };
  }

  deleteServiceAccountToken(uid: string): void {
    this.deleted.push(uid);
  }
}
