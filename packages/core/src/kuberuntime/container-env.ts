/**
 * Container environment: literal values with $(VAR) expansion, downward-API fieldRefs. ConfigMap/Secret
 * references cannot be resolved without an API server: a non-optional one is a CreateContainerConfigError.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';

export interface EnvContext {
  podIp: string;
  podIps: string[];
  nodeName: string;
  hostIp?: string;
}

export type EnvResult = { ok: true; env: Array<{ key: string; value: string }> } | { ok: false; message: string };

/** Expands $(NAME) from `vars`; $$ escapes; unknown references are left as written (as the kubelet). */
export function expandVars(input: string, vars: Map<string, string>): string {
  return input.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    return name !== undefined && vars.has(name) ? (vars.get(name) as string) : m;
  });
}

function fieldValue(pod: V1Pod, path: string, ctx: EnvContext): string | undefined {
  const m = pod.metadata ?? {};
  const sel = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (sel) return (sel[1] === 'labels' ? m.labels : m.annotations)?.[sel[2] ?? ''] ?? '';
  switch (path) {
    case 'metadata.name':
      return m.name ?? '';
    case 'metadata.namespace':
      return m.namespace ?? 'default';
    case 'metadata.uid':
      return m.uid ?? '';
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? ctx.nodeName;
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.podIP':
      return ctx.podIp;
    case 'status.podIPs':
      return ctx.podIps.join(',');
    case 'status.hostIP':
    case 'status.hostIPs':
      return ctx.hostIp ?? '';
    default:
      return undefined;
  }
}

export function makeEnvironment(pod: V1Pod, c: V1Container, ctx: EnvContext): EnvResult {
  const vars = new Map<string, string>();
  const ns = pod.metadata?.namespace ?? 'default';
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    const kind = from.configMapRef ? 'configmap' : 'secret';
    if (ref && !ref.optional) return { ok: false, message: `${kind} "${ref.name}" not found` };
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined || !e.valueFrom) {
      vars.set(e.name, expandVars(e.value ?? '', vars));
      continue;
    }
    const vf = e.valueFrom;
    if (vf.fieldRef) {
      const v = fieldValue(pod, vf.fieldRef.fieldPath, ctx);
      if (v === undefined) return { ok: false, message: `unsupported fieldPath: ${vf.fieldRef.fieldPath}` };
      vars.set(e.name, v);
    } else if (vf.configMapKeyRef) {
      if (!vf.configMapKeyRef.optional) return { ok: false, message: `configmap "${vf.configMapKeyRef.name}" not found` };
    } else if (vf.secretKeyRef) {
      if (!vf.secretKeyRef.optional) return { ok: false, message: `secret "${vf.secretKeyRef.name}" not found` };
    } else if (vf.resourceFieldRef) {
      return { ok: false, message: `resourceFieldRef for ${e.name} in ${ns}/${pod.metadata?.name ?? ''} is not supported yet` };
    }
  }
  return { ok: true, env: [...vars].map(([key, value]) => ({ key, value })) };
}
