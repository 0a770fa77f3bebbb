/**
 * The ServiceAccount admission plugin's pod mutation, as far as the double goes: when the pod's service
 * account exists and automounting is on (pod, else service account, else true), a projected
 * `kube-api-access-<5>` volume (serviceAccountToken 3607 s + configMap kube-root-ca.crt ca.crt + downward API
 * namespace, defaultMode 420) is added and mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in
 * every container that does not mount something there already. Differences from the real plugin: a pod whose
 * service account does not exist is admitted unchanged (the real one refuses it: the double has no controller
 * creating "default" service accounts), and mirror pods are left alone.
 */
import type { KubeObject } from '../resources.ts';

export const SA_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

export function kubeApiAccessVolume(name: string): KubeObject['spec'] {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

/** Mutates a pod being created; `serviceAccount` looks the pod's service account up. */
export function admitServiceAccount(pod: KubeObject, serviceAccount: (ns: string, name: string) => KubeObject | undefined, suffix: () => string): void {
  const spec = pod.spec ?? {};
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
  const sa = serviceAccount(pod.metadata.namespace, spec.serviceAccountName ?? 'default');
  if (!sa) return;
  if ((spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true) === false) return;
  const containers: any[] = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  const needs = containers.filter((c) => !(c.volumeMounts ?? []).some((m: any) => m.mountPath === SA_MOUNT_PATH));
  if (needs.length === 0) return;
  const name = `kube-api-access-${suffix()}`;
  (spec.volumes ??= []).push(kubeApiAccessVolume(name));
  for (const c of needs) (c.volumeMounts ??= []).push({ name, readOnly: true, mountPath: SA_MOUNT_PATH });
}
