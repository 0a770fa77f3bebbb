/**
 * GET /configz on the kubelet port: the running configuration as the kubelet reports it,
 * `{"kubeletconfig": {...}}` with the KubeletConfiguration (v1beta1) field names and formats (durations as Go
 * prints them, maps as objects), defaults included, without kind/apiVersion (the kubelet's converted struct
 * carries no TypeMeta; the Kubernetes docs add them with jq to reuse the output as a config file). The fields
 * are the ones the agent reads from a config file (config-file.ts), so the two never disagree.
 */
import type { AgentConfig } from './types.ts';
import { CONFIG_FILE_FIELDS, type FieldSpec } from './config-file.ts';
import { formatDuration } from './duration.ts';
import { featureGatesOf } from './feature-gates-config.ts';

export function configzBody(c: AgentConfig): { kubeletconfig: Record<string, unknown> } {
  const out: Record<string, unknown> = {};
  for (const f of CONFIG_FILE_FIELDS) {
    const v = valueOf(c, f);
    if (v === undefined) continue;
    setPath(out, f.path.split('.'), f.kind === 'duration' && typeof v === 'number' ? formatDuration(v) : v);
  }
  return { kubeletconfig: out };
}

function valueOf(c: AgentConfig, f: FieldSpec): unknown {
  if (f.key === 'crashLoopBackOffMaxMs') return c.crashLoopBackOff.maxMs;
  if (f.key === 'crashLoopBackOffInitialMs') return c.crashLoopBackOff.initialMs;
  if (f.key === 'featureGates') {
    const g = featureGatesOf(c);
    return g.ok && Object.keys(g.gates).length > 0 ? g.gates : undefined;
  }
  return f.key ? (c as unknown as Record<string, unknown>)[f.key] : undefined;
}

function setPath(obj: Record<string, unknown>, path: string[], v: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    obj[head] = Array.isArray(v) ? [...v] : v && typeof v === 'object' ? { ...v } : v;
    return;
  }
  const next = (obj[head] ??= {}) as Record<string, unknown>;
  setPath(next, rest, v);
}
