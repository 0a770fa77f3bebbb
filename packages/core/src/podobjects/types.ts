/**
 * The kubelet's secret, configMap and token managers as seen by their users (volume plugins, env resolution).
 * Expected failures are values carrying the kubelet's message (`configmap "x" not found`).
 */
import type { V1ConfigMap, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';

export type ObjectResult<T> = { ok: true; object: T } | { ok: false; notFound: boolean; message: string };

/** Gets the ConfigMaps / Secrets pods reference. */
export interface PodObjectSource {
  getConfigMap(pod: V1Pod, name: string): Promise<ObjectResult<V1ConfigMap>>;
  getSecret(pod: V1Pod, name: string): Promise<ObjectResult<V1Secret>>;
  /**
   * Every Service, for service environment variables (API-server mode only; absent = none). An API pod gets
   * an error until the services were listed once (the kubelet's serviceHasSynced); a static pod what is known.
   */
  getServices?(pod: V1Pod): Promise<{ ok: true; services: V1Service[] } | { ok: false; message: string }>;
}

export interface TokenRequestSpec {
  audiences: string[];
  expirationSeconds: number;
}

export interface ServiceAccountToken {
  token: string;
  /** ms since the epoch. */
  expirationTimestamp: number;
}

/** serviceAccountToken projections (TokenRequest API), cached and refreshed as the kubelet's token manager. */
export interface TokenSource {
  getServiceAccountToken(pod: V1Pod, spec: TokenRequestSpec): Promise<ObjectResult<ServiceAccountToken>>;
  /** Drops the tokens bound to a pod (pod removed). */
  deleteServiceAccountToken(podUid: string): void;
}

/** Static pods (file / URL sources) may not reference API objects: the kubelet refuses them. */
export function isApiPod(pod: V1Pod): boolean {
  return pod.metadata?.annotations?.['kubernetes.io/config.source'] === 'api';
}

/** The kubelet's refusal for a static pod referencing an API object kind (plural: configmaps, secrets...). */
export function staticPodRefusal(resource: string): string {
  return `static pods may not reference ${resource}`;
}
