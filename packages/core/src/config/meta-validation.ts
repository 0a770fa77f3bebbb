/**
 * Object metadata validation with the API server's messages (apimachinery ValidateObjectMeta for a pod):
 * name a DNS-1123 subdomain, namespace a DNS-1123 label, label keys qualified names and values valid label
 * values (<= 63 characters), annotation keys qualified names and all annotations at most 256 KiB together.
 * A static manifest may set its own metadata.uid (the kubelet keeps it); since the UID names directories on
 * the host, it must also be path-safe: alphanumerics, '-', '_' and '.', no "..", no '/'.
 */
import type { V1ObjectMeta } from '@kubernetes/client-node';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const UID = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** apimachinery TotalAnnotationSizeLimitB. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const UID_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', must start and end with an alphanumeric character and may not contain '..' (it names directories on the node; regex used for validation is '[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?')";

/** A value as the field error prints it; very long strings are cut so a 10 MB value never reaches a log line. */
export function quote(v: unknown): string {
  if (typeof v === 'string' && v.length > 256) return `${JSON.stringify(v.slice(0, 64))}... (${v.length} characters)`;
  return JSON.stringify(v) ?? String(v);
}

const maxLen = (n: number) => `must be no more than ${n} characters`;

export function validateDnsLabel(path: string, v: string): string[] {
  if (v.length > 63) return [`${path}: Invalid value: ${quote(v)}: ${maxLen(63)}`];
  return DNS1123_LABEL.test(v) ? [] : [`${path}: Invalid value: ${quote(v)}: ${LABEL_MSG}`];
}

function subdomainMessages(v: string): string[] {
  if (v.length > 253) return [maxLen(253)];
  return DNS1123_SUBDOMAIN.test(v) ? [] : [SUBDOMAIN_MSG];
}

export function validateDnsSubdomain(path: string, v: string): string[] {
  return subdomainMessages(v).map((m) => `${path}: Invalid value: ${quote(v)}: ${m}`);
}

/** apimachinery IsQualifiedName: [prefix/]name, prefix a DNS subdomain, name <= 63 characters. */
export function qualifiedNameMessages(v: string): string[] {
  const parts = v.split('/');
  if (parts.length > 2) {
    return [`a qualified name ${QUALIFIED_NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const errs: string[] = [];
  const name = parts.length === 2 ? (parts[1] as string) : v;
  if (parts.length === 2) {
    const prefix = parts[0] as string;
    if (prefix === '') errs.push('prefix part must be non-empty');
    else errs.push(...subdomainMessages(prefix).map((m) => `prefix part ${m}`));
  }
  if (name === '') errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (name.length <= 63 && !QUALIFIED_NAME.test(name)) errs.push(`name part ${QUALIFIED_NAME_MSG}`);
  return errs;
}

function validateLabels(labels: Record<string, string>, path: string): string[] {
  const errs: string[] = [];
  for (const [k, v] of Object.entries(labels)) {
    for (const m of qualifiedNameMessages(k)) errs.push(`${path}: Invalid value: ${quote(k)}: ${m}`);
    if (v.length > 63) errs.push(`${path}: Invalid value: ${quote(v)}: ${maxLen(63)}`);
    else if (!LABEL_VALUE.test(v)) errs.push(`${path}: Invalid value: ${quote(v)}: ${LABEL_VALUE_MSG}`);
  }
  return errs;
}

function validateAnnotations(annotations: Record<string, string>, path: string): string[] {
  const errs: string[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) {
    // The rule is QualifiedName except that case does not matter.
    for (const m of qualifiedNameMessages(k.toLowerCase())) errs.push(`${path}: Invalid value: ${quote(k)}: ${m}`);
    total += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(`${path}: Too long: must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT_B} bytes`);
  return errs;
}

/** A path-safe UID: what names the pod's directories on the node. */
export function validateUid(path: string, uid: string): string[] {
  if (uid.length > 253) return [`${path}: Invalid value: ${quote(uid)}: ${maxLen(253)}`];
  return UID.test(uid) && !uid.includes('..') ? [] : [`${path}: Invalid value: ${quote(uid)}: ${UID_MSG}`];
}

/**
 * The identity checks alone (name, namespace, uid as strings that can safely name a directory): for pods of
 * any source, whatever validated them before.
 */
export function identityErrors(meta: { name?: unknown; namespace?: unknown; uid?: unknown } | undefined): string[] {
  const str = (path: string, v: unknown, check: (p: string, s: string) => string[]) =>
    typeof v === 'string' && v !== '' ? check(path, v) : [`${path}: Required value`];
  return [
    ...str('metadata.name', meta?.name, validateDnsSubdomain),
    ...str('metadata.namespace', meta?.namespace, validateDnsLabel),
    ...str('metadata.uid', meta?.uid, validateUid),
  ];
}

/** Metadata errors of a type-checked pod (name, namespace, uid, labels, annotations). */
export function validatePodMeta(meta: V1ObjectMeta | undefined): string[] {
  const errs: string[] = [];
  const name = meta?.name;
  if (!name) errs.push('metadata.name: Required value: name or generateName is required');
  else errs.push(...validateDnsSubdomain('metadata.name', name));
  const ns = meta?.namespace;
  if (ns) errs.push(...validateDnsLabel('metadata.namespace', ns));
  if (meta?.uid) errs.push(...validateUid('metadata.uid', meta.uid));
  if (meta?.labels) errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  if (meta?.annotations) errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  return errs;
}
