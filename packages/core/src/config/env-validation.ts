/**
 * Environment and downward API selector validation with the API server's messages (v1.28
 * pkg/apis/core/validation: ValidateEnv, validateEnvVarValueFrom, validateObjectFieldSelector,
 * validateContainerResourceFieldSelector, validateContainerResourceDivisor, ValidateEnvFrom,
 * validateConfigMapKeySelector / validateSecretKeySelector). A fieldRef without apiVersion counts as "v1",
 * the value the API server's defaulting gives it.
 */
import type {
  V1ConfigMapKeySelector,
  V1EnvFromSource,
  V1EnvVar,
  V1ObjectFieldSelector,
  V1ResourceFieldSelector,
  V1SecretKeySelector,
} from '@kubernetes/client-node';
import { tryParseQuantity } from '../util/quantity.ts';
import { configMapKeyMessages, envVarNameMessages, notSupported } from './field-format.ts';
import { qualifiedNameMessages, quote, validateDnsSubdomain } from './meta-validation.ts';

/** validEnvDownwardAPIFieldPathExpressions (sorted, as sets.List prints them). */
export const ENV_FIELD_PATHS = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName',
  'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
];
/** validVolumeDownwardAPIFieldPathExpressions. */
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
/** validContainerResourceFieldPathExpressions. */
const RESOURCE_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const HUGEPAGES_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];
/** What podshelper.ConvertDownwardAPIFieldLabel converts (v1); anything else is "field label not supported". */
const CONVERTIBLE = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['k']` → ['metadata.labels', 'k']. */
function splitSubscript(p: string): [string, string] | undefined {
  const m = /^(.*)\['(.*)'\]$/.exec(p);
  return m ? [m[1] as string, m[2] as string] : undefined;
}

/** validateObjectFieldSelector (`path`: e.g. spec.containers[0].env[0].valueFrom.fieldRef). */
export function validateFieldSelector(fs: V1ObjectFieldSelector, allowed: readonly string[], path: string): string[] {
  const version = fs.apiVersion || 'v1';
  if (!fs.fieldPath) return [`${path}.fieldPath: Required value`];
  const fp = fs.fieldPath;
  const sub = splitSubscript(fp);
  let convErr: string | undefined;
  if (version !== 'v1') convErr = `unsupported pod version: ${version}`;
  else if (sub && sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') convErr = `field label does not support subscript: ${fp}`;
  else if (!sub && !CONVERTIBLE.has(fp)) convErr = `field label not supported: ${fp}`;
  if (convErr) return [`${path}.fieldPath: Invalid value: ${quote(fp)}: error converting fieldPath: ${convErr}`];
  if (sub) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    return qualifiedNameMessages(key).map((m) => `${path}: Invalid value: ${quote(key)}: ${m}`);
  }
  return allowed.includes(fp) ? [] : [notSupported(`${path}.fieldPath`, fp, allowed)];
}

const DIVISORS: Record<string, { values: number[]; msg: string }> = {
  cpu: { values: [0.001, 1], msg: '1m and 1' },
  memory: { values: [], msg: '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei' },
};
DIVISORS.memory!.values = [1, ...[1, 2, 3, 4, 5, 6].flatMap((e) => [1000 ** e, 1024 ** e])];

/** validateContainerResourceDivisor (compared by value: the API server compares the canonical form). */
function divisorErrors(resource: string, divisor: string | number | undefined, path: string): string[] {
  if (divisor === undefined) return [];
  const d = tryParseQuantity(divisor);
  if (!d.ok) return [`${path}.divisor: Invalid value: ${quote(divisor)}: ${d.reason}`];
  if (d.value === 0) return [];
  const kind = resource.endsWith('.cpu') ? 'cpu' : resource.endsWith('.memory') ? 'memory' : resource.endsWith('.ephemeral-storage') ? 'ephemeral-storage' : resource.includes('.hugepages-') ? 'hugepages' : '';
  if (!kind) return [];
  const set = kind === 'cpu' ? DIVISORS.cpu! : DIVISORS.memory!;
  if (set.values.some((v) => Math.abs(v - d.value) < 1e-9 * Math.max(1, v))) return [];
  const what = kind === 'ephemeral-storage' ? 'local ephemeral storage' : kind;
  return [`${path}.divisor: Invalid value: ${quote(resource)}: only divisor's values ${set.msg} are supported with the ${what} resource`];
}

/** validateContainerResourceFieldSelector (`volume`: containerName is required in downward API volumes). */
export function validateResourceFieldSelector(fs: V1ResourceFieldSelector, path: string, volume: boolean): string[] {
  const errs: string[] = [];
  if (volume && !fs.containerName) errs.push(`${path}.containerName: Required value`);
  else if (!fs.resource) errs.push(`${path}.resource: Required value`);
  else if (!RESOURCE_PATHS.includes(fs.resource) && !HUGEPAGES_PREFIXES.some((p) => fs.resource.startsWith(p))) {
    errs.push(notSupported(`${path}.resource`, fs.resource, RESOURCE_PATHS));
  }
  errs.push(...divisorErrors(fs.resource ?? '', fs.divisor as string | number | undefined, path));
  return errs;
}

function keySelector(s: V1ConfigMapKeySelector | V1SecretKeySelector, path: string): string[] {
  const errs = validateDnsSubdomain(`${path}.name`, s.name ?? '');
  if (!s.key) errs.push(`${path}.key: Required value`);
  else errs.push(...configMapKeyMessages(s.key).map((m) => `${path}.key: Invalid value: ${quote(s.key)}: ${m}`));
  return errs;
}

function valueFrom(ev: V1EnvVar, path: string): string[] {
  const vf = ev.valueFrom;
  if (!vf) return [];
  const errs: string[] = [];
  let n = 0;
  if (vf.fieldRef) {
    n++;
    errs.push(...validateFieldSelector(vf.fieldRef, ENV_FIELD_PATHS, `${path}.fieldRef`));
  }
  if (vf.resourceFieldRef) {
    n++;
    errs.push(...validateResourceFieldSelector(vf.resourceFieldRef, `${path}.resourceFieldRef`, false));
  }
  if (vf.configMapKeyRef) {
    n++;
    errs.push(...keySelector(vf.configMapKeyRef, `${path}.configMapKeyRef`));
  }
  if (vf.secretKeyRef) {
    n++;
    errs.push(...keySelector(vf.secretKeyRef, `${path}.secretKeyRef`));
  }
  if (n === 0) errs.push(`${path}: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\` or \`secretKeyRef\``);
  else if (ev.value) errs.push(`${path}: Invalid value: "": may not be specified when \`value\` is not empty`);
  else if (n > 1) errs.push(`${path}: Invalid value: "": may not have more than one field specified at a time`);
  return errs;
}

/** ValidateEnv (`path`: e.g. spec.containers[0].env). */
export function validateEnv(vars: V1EnvVar[] | undefined, path: string): string[] {
  const errs: string[] = [];
  for (const [i, ev] of (vars ?? []).entries()) {
    const p = `${path}[${i}]`;
    if (!ev.name) errs.push(`${p}.name: Required value`);
    else errs.push(...envVarNameMessages(ev.name).map((m) => `${p}.name: Invalid value: ${quote(ev.name)}: ${m}`));
    errs.push(...valueFrom(ev, `${p}.valueFrom`));
  }
  return errs;
}

/** NameIsDNSSubdomain(name, prefix=true): a trailing '-' is allowed (maskTrailingDash). */
function envSourceName(name: string | undefined, path: string): string[] {
  if (!name) return [`${path}: Required value`];
  const masked = name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
  return validateDnsSubdomain(path, masked).map((e) => e.replace(`: ${quote(masked)}: `, `: ${quote(name)}: `));
}

/** ValidateEnvFrom (`path`: e.g. spec.containers[0].envFrom). */
export function validateEnvFrom(sources: V1EnvFromSource[] | undefined, path: string): string[] {
  const errs: string[] = [];
  for (const [i, ev] of (sources ?? []).entries()) {
    const p = `${path}[${i}]`;
    if (ev.prefix) errs.push(...envVarNameMessages(ev.prefix).map((m) => `${p}.prefix: Invalid value: ${quote(ev.prefix)}: ${m}`));
    let n = 0;
    if (ev.configMapRef) {
      n++;
      errs.push(...envSourceName(ev.configMapRef.name, `${p}.configMapRef.name`));
    }
    if (ev.secretRef) {
      n++;
      errs.push(...envSourceName(ev.secretRef.name, `${p}.secretRef.name`));
    }
    if (n === 0) errs.push(`${path}: Invalid value: "": must specify one of: \`configMapRef\` or \`secretRef\``);
    else if (n > 1) errs.push(`${path}: Invalid value: "": may not have more than one field specified at a time`);
  }
  return errs;
}
