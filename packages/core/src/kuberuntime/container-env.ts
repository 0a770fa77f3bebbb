/**
 * Container environment: literal values with $(VAR) expansion, downward-API fieldRefs, ConfigMap / Secret
 * references (env valueFrom and envFrom) through the kubelet's configMap / secret managers.
 */
import type { V1ConfigMap, V1Container, V1Pod, V1Secret } from '@kubernetes/client-node';
import type { PodObjectSource } from '../podobjects/types.ts';
import { serviceEnvVarMap } from './service-env.ts';
import { containerResourceValue, resourceValue, volumeFieldValue, type NodeAllocatable } from '../volume/downward-api.ts';

export interface EnvContext {
  podIp: string;
  podIps: string[];
  nodeName: string;
  hostIp?: string;
  /** Every host IP (status.hostIPs); defaults to [hostIp]. */
  hostIps?: string[];
  /** The node's allocatable: the limit of a container that sets none (kubelet defaultPodLimitsForDownwardAPI). */
  allocatable?: NodeAllocatable;
  /** The configMap / secret managers (API-server pods); absent = every reference is "not found". */
  objects?: PodObjectSource;
}

export type EnvResult =
  | { ok: true; env: Array<{ key: string; value: string }>; /** InvalidEnvironmentVariableNames event messages. */ warnings?: string[] }
  | { ok: false; message: string };

/** Expands $(NAME) from `vars`; $$ escapes; unknown references are left as written (as the kubelet). */
export function expandVars(input: string, vars: Map<string, string>): string {
  return input.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    return name !== undefined && vars.has(name) ? (vars.get(name) as string) : m;
  });
}

/** podFieldSelectorRuntimeValue: spec / status paths here, metadata through ExtractFieldPathAsString. */
function fieldValue(pod: V1Pod, path: string, ctx: EnvContext): string | undefined {
  switch (path) {
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? ctx.nodeName;
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.podIP':
      return ctx.podIp;
    case 'status.podIPs':
      return ctx.podIps.join(',');
    case 'status.hostIP':
      return ctx.hostIps?.[0] ?? ctx.hostIp ?? '';
    case 'status.hostIPs':
      return (ctx.hostIps ?? (ctx.hostIp ? [ctx.hostIp] : [])).join(',');
    default: {
      const r = volumeFieldValue(pod, path);
      return r.ok ? r.value : undefined;
    }
  }
}

type KeyRefOutcome = { ok: true; value?: string } | { ok: false; message: string };

async function keyRef(pod: V1Pod, src: PodObjectSource, kind: 'ConfigMap' | 'Secret', ref: { name?: string; key: string; optional?: boolean }): Promise<KeyRefOutcome> {
  const name = ref.name ?? '';
  const r = kind === 'ConfigMap' ? await src.getConfigMap(pod, name) : await src.getSecret(pod, name);
  if (!r.ok) return r.notFound && ref.optional ? { ok: true } : { ok: false, message: r.message };
  const data = objectData(kind, r.object);
  const v = data.get(ref.key);
  if (v !== undefined) return { ok: true, value: v };
  if (ref.optional) return { ok: true };
  return { ok: false, message: `couldn't find key ${ref.key} in ${kind} ${pod.metadata?.namespace ?? 'default'}/${name}` };
}

function objectData(kind: 'ConfigMap' | 'Secret', o: V1ConfigMap | V1Secret): Map<string, string> {
  if (kind === 'Secret') return new Map(Object.entries(o.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
  const cm = o as V1ConfigMap;
  return new Map([...Object.entries(cm.data ?? {}), ...Object.entries(cm.binaryData ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')] as [string, string])]);
}

/** The relaxed environment variable name rule: printable ASCII without '='. */
export function isEnvVarName(name: string): boolean {
  return name.length > 0 && /^[\x20-\x7e]+$/.test(name) && !name.includes('=');
}

async function addEnvFrom(pod: V1Pod, c: V1Container, src: PodObjectSource, vars: Map<string, string>): Promise<{ ok: true; warnings: string[] } | { ok: false; message: string }> {
  const warnings: string[] = [];
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
    const name = ref.name ?? '';
    const r = kind === 'ConfigMap' ? await src.getConfigMap(pod, name) : await src.getSecret(pod, name);
    if (!r.ok) {
      if (r.notFound && ref.optional) continue;
      return { ok: false, message: r.message };
    }
    const invalid: string[] = [];
    for (const [k, v] of objectData(kind, r.object)) {
      const key = `${from.prefix ?? ''}${k}`;
      if (isEnvVarName(key)) vars.set(key, v);
      else invalid.push(key);
    }
    if (invalid.length > 0) {
      const what = `${kind === 'ConfigMap' ? 'configMap' : 'secret'} ${pod.metadata?.namespace ?? 'default'}/${name}`;
      warnings.push(`Keys [${invalid.sort().join(', ')}] from the EnvFrom ${what} were skipped since they are considered invalid environment variable names.`);
    }
  }
  return { ok: true, warnings };
}

/**
 * The container's environment as the kubelet's makeEnvironmentVariables: envFrom (prefix, optional) first,
 * then env (literal values with $(VAR) expansion, fieldRefs, configMapKeyRef / secretKeyRef), then the
 * service variables the container does not set itself ($(VAR) sees them too; service-env.ts). Without
 * ctx.objects every ConfigMap / Secret reference is "not found" and there are no service variables.
 */
export async function makeEnvironment(pod: V1Pod, c: V1Container, ctx: EnvContext): Promise<EnvResult> {
  const vars = new Map<string, string>();
  const src = ctx.objects ?? NO_OBJECTS;
  const services = src.getServices ? await src.getServices(pod) : { ok: true as const, services: [] };
  if (!services.ok) return services;
  const serviceEnv = serviceEnvVarMap(services.services, pod.metadata?.namespace ?? 'default', pod.spec?.enableServiceLinks ?? true);
  const from = await addEnvFrom(pod, c, src, vars);
  if (!from.ok) return from;
  for (const e of c.env ?? []) {
    if (e.value !== undefined || !e.valueFrom) {
      vars.set(e.name, expandVars(e.value ?? '', serviceEnv.size ? new Map([...serviceEnv, ...vars]) : vars));
      continue;
    }
    const vf = e.valueFrom;
    if (vf.fieldRef) {
      const v = fieldValue(pod, vf.fieldRef.fieldPath, ctx);
      if (v === undefined) return { ok: false, message: `unsupported fieldPath: ${vf.fieldRef.fieldPath}` };
      vars.set(e.name, v);
    } else if (vf.configMapKeyRef || vf.secretKeyRef) {
      const r = vf.configMapKeyRef ? await keyRef(pod, src, 'ConfigMap', vf.configMapKeyRef) : await keyRef(pod, src, 'Secret', vf.secretKeyRef!);
      if (!r.ok) return r;
      if (r.value !== undefined) vars.set(e.name, r.value);
    } else if (vf.resourceFieldRef) {
      // containerResourceRuntimeValue: no containerName = this container.
      const ref = vf.resourceFieldRef;
      const r = ref.containerName ? resourceValue(pod, ref, ctx.allocatable) : containerResourceValue(c, ref, ctx.allocatable);
      if (!r.ok) return r;
      vars.set(e.name, r.value);
    }
  }
  for (const [k, v] of serviceEnv) if (!vars.has(k)) vars.set(k, v);
  return { ok: true, env: [...vars].map(([key, value]) => ({ key, value })), ...(from.warnings.length ? { warnings: from.warnings } : {}) };
}

/** No API objects (no API server): every reference is "not found". */
const NO_OBJECTS: PodObjectSource = {
  getConfigMap: async (_pod, name) => ({ ok: false, notFound: true, message: `configmap "${name}" not found` }),
  getSecret: async (_pod, name) => ({ ok: false, notFound: true, message: `secret "${name}" not found` }),
};
