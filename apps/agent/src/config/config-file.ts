/** KubeletConfiguration (kubelet.config.k8s.io/v1beta1) YAML → settings. Unknown fields are warnings, not errors. */
import { parse as parseYaml } from 'yaml';
import { parseDuration } from './duration.ts';
import type { ConfigResult, PartialSettings } from './types.ts';
import { EVICTION_FILE_FIELDS } from './eviction-config.ts';
import { APISERVER_FILE_FIELDS } from './apiserver-config.ts';
import { LOG_FILE_FIELDS } from './log-config.ts';
import { RECORDER_FILE_FIELDS } from './recorder-config.ts';
import { DNS_FILE_FIELDS } from './dns-config.ts';
import { POD_CIDR_FILE_FIELDS } from './pod-cidr-config.ts';
import { SHUTDOWN_FILE_FIELDS } from './shutdown-config.ts';
import { ROTATION_FILE_FIELDS } from './rotation-config.ts';
import { CPU_MANAGER_FILE_FIELDS } from './cpu-manager-config.ts';
import { TOPOLOGY_MEMORY_FILE_FIELDS } from './topology-memory-config.ts';
import { FEATURE_GATES_FILE_FIELDS } from './feature-gates-config.ts';

/** 'objects': a list of objects, checked field by field where the setting is validated; 'gates': name → true/false. */
export type FieldKind = 'string' | 'bool' | 'int' | 'duration' | 'map' | 'strings' | 'objects' | 'gates';

export interface FieldSpec {
  path: string;
  key?: keyof PartialSettings;
  kind: FieldKind;
}

export const CONFIG_API_VERSION = 'kubelet.config.k8s.io/v1beta1';

/** Every KubeletConfiguration field the agent reads (also what /configz reports). */
export const CONFIG_FILE_FIELDS: FieldSpec[] = [
  { path: 'staticPodPath', key: 'podManifestPath', kind: 'string' },
  { path: 'staticPodURL', key: 'manifestUrl', kind: 'string' },
  { path: 'address', key: 'address', kind: 'string' },
  { path: 'port', key: 'port', kind: 'int' },
  { path: 'readOnlyPort', key: 'readOnlyPort', kind: 'int' },
  { path: 'healthzPort', key: 'healthzPort', kind: 'int' },
  { path: 'healthzBindAddress', key: 'healthzBindAddress', kind: 'string' },
  { path: 'authentication.anonymous.enabled', key: 'anonymousAuth', kind: 'bool' },
  { path: 'authentication.x509.clientCAFile', key: 'clientCAFile', kind: 'string' },
  { path: 'authentication.webhook.enabled', key: 'authenticationTokenWebhook', kind: 'bool' },
  { path: 'authentication.webhook.cacheTTL', key: 'authenticationWebhookCacheTtlMs', kind: 'duration' },
  { path: 'authorization.mode', key: 'authorizationMode', kind: 'string' },
  { path: 'authorization.webhook.cacheAuthorizedTTL', key: 'authorizationWebhookCacheAuthorizedTtlMs', kind: 'duration' },
  { path: 'authorization.webhook.cacheUnauthorizedTTL', key: 'authorizationWebhookCacheUnauthorizedTtlMs', kind: 'duration' },
  { path: 'tlsCertFile', key: 'tlsCertFile', kind: 'string' },
  { path: 'tlsPrivateKeyFile', key: 'tlsPrivateKeyFile', kind: 'string' },
  { path: 'containerRuntimeEndpoint', key: 'containerRuntimeEndpoint', kind: 'string' },
  { path: 'podLogsDir', key: 'podLogsDir', kind: 'string' },
  { path: 'maxPods', key: 'maxPods', kind: 'int' },
  { path: 'allowedUnsafeSysctls', key: 'allowedUnsafeSysctls', kind: 'strings' },
  { path: 'cgroupRoot', key: 'cgroupRoot', kind: 'string' },
  { path: 'cgroupsPerQOS', key: 'cgroupsPerQOS', kind: 'bool' },
  { path: 'syncFrequency', key: 'syncFrequencyMs', kind: 'duration' },
  { path: 'fileCheckFrequency', key: 'fileCheckFrequencyMs', kind: 'duration' },
  { path: 'httpCheckFrequency', key: 'httpCheckFrequencyMs', kind: 'duration' },
  { path: 'runtimeRequestTimeout', key: 'runtimeRequestTimeoutMs', kind: 'duration' },
  { path: 'volumeStatsAggPeriod', key: 'volumeStatsAggPeriodMs', kind: 'duration' },
  { path: 'crashLoopBackOff.maxContainerRestartPeriod', key: 'crashLoopBackOffMaxMs', kind: 'duration' },
  ...EVICTION_FILE_FIELDS,
  ...APISERVER_FILE_FIELDS,
  ...LOG_FILE_FIELDS,
  ...RECORDER_FILE_FIELDS,
  ...DNS_FILE_FIELDS,
  ...POD_CIDR_FILE_FIELDS,
  ...SHUTDOWN_FILE_FIELDS,
  ...ROTATION_FILE_FIELDS,
  ...CPU_MANAGER_FILE_FIELDS,
  ...TOPOLOGY_MEMORY_FILE_FIELDS,
  ...FEATURE_GATES_FILE_FIELDS,
];

const BY_PATH = new Map(CONFIG_FILE_FIELDS.map((f) => [f.path, f]));
const PREFIXES = new Set(CONFIG_FILE_FIELDS.flatMap((f) => f.path.split('.').slice(0, -1).map((_, i, a) => a.slice(0, i + 1).join('.'))));

export function parseConfigFile(text: string, fileName: string): ConfigResult<PartialSettings> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    return { ok: false, reason: `${fileName}: invalid YAML: ${(err as Error).message.split('\n')[0]}` };
  }
  if (!isObject(doc)) return { ok: false, reason: `${fileName}: expected a KubeletConfiguration object` };
  if (doc.kind !== 'KubeletConfiguration') {
    return { ok: false, reason: `${fileName}: kind must be "KubeletConfiguration", got ${JSON.stringify(doc.kind ?? null)}` };
  }
  if (doc.apiVersion !== CONFIG_API_VERSION) {
    return { ok: false, reason: `${fileName}: apiVersion must be "${CONFIG_API_VERSION}", got ${JSON.stringify(doc.apiVersion ?? null)}` };
  }
  const settings: PartialSettings = {};
  const warnings: string[] = [];
  const error = walk(doc, '', settings, warnings);
  if (error) return { ok: false, reason: `${fileName}: ${error}` };
  return { ok: true, value: settings, warnings: warnings.map((w) => `${fileName}: ${w}`) };
}

function walk(obj: Record<string, unknown>, prefix: string, out: PartialSettings, warnings: string[]): string | undefined {
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (!prefix && (k === 'kind' || k === 'apiVersion')) continue;
    const spec = BY_PATH.get(path);
    if (spec) {
      if (v === null || v === undefined) continue;
      const conv = convert(spec, v);
      if (!conv.ok) return conv.reason;
      if (spec.key) (out as Record<string, unknown>)[spec.key] = conv.value;
      continue;
    }
    if (PREFIXES.has(path)) {
      if (v === null) continue;
      if (!isObject(v)) return `${path}: expected an object`;
      const err = walk(v, path, out, warnings);
      if (err) return err;
      continue;
    }
    warnings.push(`field "${path}" is not supported by nodelet and is ignored`);
  }
  return undefined;
}

function convert(spec: FieldSpec, v: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  const bad = (want: string) => ({ ok: false as const, reason: `${spec.path}: expected ${want}, got ${JSON.stringify(v)}` });
  switch (spec.kind) {
    case 'string':
      return typeof v === 'string' ? { ok: true, value: v } : bad('a string');
    case 'bool':
      return typeof v === 'boolean' ? { ok: true, value: v } : bad('true or false');
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) ? { ok: true, value: v } : bad('an integer');
    case 'duration': {
      if (typeof v !== 'string') return bad('a duration string like "20s"');
      const d = parseDuration(v);
      return d.ok ? { ok: true, value: d.ms } : { ok: false, reason: `${spec.path}: ${d.reason}` };
    }
    case 'strings':
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? { ok: true, value: [...v] } : bad('a list of strings');
    case 'objects':
      return Array.isArray(v) && v.every(isObject) ? { ok: true, value: v.map((x) => ({ ...x })) } : bad('a list of objects');
    case 'map':
      return isObject(v) && Object.values(v).every((x) => typeof x === 'string') ? { ok: true, value: { ...v } } : bad('a map of strings');
    case 'gates':
      return isObject(v) && Object.values(v).every((x) => typeof x === 'boolean') ? { ok: true, value: { ...v } } : bad('a map of feature names to true or false');
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
