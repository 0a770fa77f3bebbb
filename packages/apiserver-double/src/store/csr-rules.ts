/**
 * CertificateSigningRequests (certificates.k8s.io/v1) as the v1.28 registry treats them. Strategies: create injects
 * the requesting user (spec.username / uid / groups / extra) and empties the status; the main resource changes only
 * metadata; `/status` keeps the spec and the Approved / Denied conditions; `/approval` keeps the spec, the
 * certificate and the Failed conditions; conditions get lastUpdateTime / lastTransitionTime. Validation as
 * ValidateCertificateSigningRequest{Create,Update,StatusUpdate,ApprovalUpdate}: the request parses and its
 * signature verifies, usages known and unique, signerName qualified (the legacy signer refused), expirationSeconds
 * ≥ 600, condition rules, status.certificate PEM CERTIFICATE blocks, set only through /status and only once.
 */
import { X509Certificate } from 'node:crypto';
import type { KubeObject } from '../resources.ts';
import type { FieldError } from './pod-rules.ts';
import { parseCsr, pemBlock } from './csr-parse.ts';

export type CsrSubresource = 'status' | 'approval' | undefined;

export interface CsrUser {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export const VALID_USAGES = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
];
const TRUE_ONLY = new Set(['Approved', 'Denied', 'Failed']);
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const conditionsOf = (o: KubeObject): Condition[] => (o.status?.conditions ?? []) as Condition[];
const ofType = (o: KubeObject, t: string) => conditionsOf(o).filter((c) => c.type === t);
const q = (v: unknown) => JSON.stringify(v);
const err = (field: string, type: string, message: string): FieldError => ({ field, type, message });

/** PrepareForCreate: the requester's identity into the spec, no pre-approved requests. */
export function prepareCsrCreate(obj: KubeObject, user: CsrUser | undefined): void {
  const spec = (obj.spec ??= {});
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (user) {
    spec.username = user.username;
    if (user.uid) spec.uid = user.uid;
    spec.groups = [...user.groups];
    if (user.extra && Object.keys(user.extra).length) spec.extra = structuredClone(user.extra);
  }
  obj.status = {};
}

/** PrepareForUpdate of the main resource and of the two subresources; `now` is an RFC 3339 time. */
export function prepareCsrUpdate(next: KubeObject, old: KubeObject, sub: CsrSubresource, now: string): void {
  next.spec = structuredClone(old.spec);
  if (sub === undefined) {
    next.status = structuredClone(old.status ?? {});
    return;
  }
  next.status ??= {};
  if (sub === 'status') {
    for (const t of ['Approved', 'Denied']) preserveConditionInstances(next, old, t);
  } else {
    if (old.status?.certificate === undefined) delete next.status.certificate;
    else next.status.certificate = old.status.certificate;
    preserveConditionInstances(next, old, 'Failed');
  }
  for (const c of conditionsOf(next)) {
    c.lastUpdateTime ||= now;
    c.lastTransitionTime ||= conditionsOf(old).find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime)?.lastTransitionTime ?? now;
  }
}

function preserveConditionInstances(next: KubeObject, old: KubeObject, type: string): void {
  const oldOnes = ofType(old, type);
  const idx = conditionsOf(next).flatMap((c, i) => (c.type === type ? [i] : []));
  if (idx.length !== oldOnes.length) return;
  idx.forEach((i, k) => (next.status.conditions[i] = structuredClone(oldOnes[k])));
}

/** validateCertificateSigningRequest (the spec and status rules; metadata is validated with every object). */
export function validateCsr(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj.spec ?? {};
  const errs: FieldError[] = [];
  const requestBytes = Buffer.from(String(spec.request ?? ''), 'base64');
  const parsed = parseCsr(requestBytes.toString('utf8'));
  if (!parsed.ok) errs.push(err('spec.request', 'FieldValueInvalid', `Invalid value: ${goBytes(requestBytes)}: ${parsed.reason}`));
  const usages: string[] = Array.isArray(spec.usages) ? spec.usages : [];
  if (usages.length === 0) errs.push(err('spec.usages', 'FieldValueRequired', 'Required value'));
  const lenient = (test: (o: KubeObject) => boolean) => old !== undefined && test(old);
  if (!lenient((o) => (o.spec?.usages ?? []).some((u: string) => !VALID_USAGES.includes(u))))
    usages.forEach((u, i) => {
      if (!VALID_USAGES.includes(u))
        errs.push(err(`spec.usages[${i}]`, 'FieldValueNotSupported', `Unsupported value: ${q(u)}: supported values: ${[...VALID_USAGES].sort().map(q).join(', ')}`));
    });
  if (!lenient((o) => new Set(o.spec?.usages ?? []).size !== (o.spec?.usages ?? []).length))
    usages.forEach((u, i) => {
      if (usages.indexOf(u) < i) errs.push(err(`spec.usages[${i}]`, 'FieldValueDuplicate', `Duplicate value: ${q(u)}`));
    });
  if (spec.signerName === 'kubernetes.io/legacy-unknown' && !lenient((o) => o.spec?.signerName === 'kubernetes.io/legacy-unknown'))
    errs.push(err('spec.signerName', 'FieldValueInvalid', `Invalid value: ${q(spec.signerName)}: the legacy signerName is not allowed via this API version`));
  else errs.push(...validateSignerName(String(spec.signerName ?? '')));
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds !== null && Number(spec.expirationSeconds) < 600)
    errs.push(err('spec.expirationSeconds', 'FieldValueInvalid', `Invalid value: ${spec.expirationSeconds}: may not specify a duration less than 600 seconds (10 minutes)`));
  errs.push(...validateConditions(obj, old));
  const cert = obj.status?.certificate;
  const certUntouched = old !== undefined && old.status?.certificate === cert;
  // allowArbitraryCertificate: an update leaving the certificate alone, or an old one already invalid, is tolerated.
  if (cert && !certUntouched && !(old && certificateError(old.status?.certificate))) {
    const bad = certificateError(cert);
    if (bad) errs.push(err('status.certificate', 'FieldValueInvalid', `Invalid value: "<certificate data>": ${bad}`));
  }
  return errs;
}

function validateConditions(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const both = (o: KubeObject) => ofType(o, 'Approved').length > 0 && ofType(o, 'Denied').length > 0;
  const dupes = (o: KubeObject) => new Set(conditionsOf(o).map((c) => c.type)).size !== conditionsOf(o).length;
  const allowBoth = old !== undefined && both(old);
  const allowDupes = old !== undefined && dupes(old);
  const allowEmpty = old !== undefined && conditionsOf(old).some((c) => !c.type);
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(obj).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    if (!c.type && !allowEmpty) errs.push(err(`${at}.type`, 'FieldValueRequired', 'Required value'));
    const allowed = TRUE_ONLY.has(c.type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (!c.status) errs.push(err(`${at}.status`, 'FieldValueRequired', 'Required value'));
    else if (!allowed.includes(c.status))
      errs.push(err(`${at}.status`, 'FieldValueNotSupported', `Unsupported value: ${q(c.status)}: supported values: ${allowed.map(q).join(', ')}`));
    if (!allowBoth && ((c.type === 'Approved' && denied) || (c.type === 'Denied' && approved)))
      errs.push(err(`${at}.type`, 'FieldValueInvalid', `Invalid value: ${q(c.type)}: Approved and Denied conditions are mutually exclusive`));
    if (c.type === 'Approved') approved = true;
    if (c.type === 'Denied') denied = true;
    if (!allowDupes && seen.has(c.type)) errs.push(err(`${at}.type`, 'FieldValueDuplicate', `Duplicate value: ${q(c.type)}`));
    seen.add(c.type);
  });
  return errs;
}

/** validateCertificateSigningRequestUpdate with the subresource's permissions. */
export function validateCsrUpdate(next: KubeObject, old: KubeObject, sub: CsrSubresource): FieldError[] {
  const errs = validateCsr(next, old);
  for (const t of ['Approved', 'Denied', 'Failed'])
    if (ofType(next, t).length < ofType(old, t).length)
      errs.push(err('status.conditions', 'FieldValueForbidden', `Forbidden: updates may not remove a condition of type ${q(t)}`));
  if (sub !== 'approval')
    for (const t of ['Approved', 'Denied']) {
      const [o, n] = [ofType(old, t), ofType(next, t)];
      if (n.length > o.length) errs.push(err('status.conditions', 'FieldValueForbidden', `Forbidden: updates may not add a condition of type ${q(t)}`));
      else if (n.length === o.length && q(n) !== q(o))
        errs.push(err('status.conditions', 'FieldValueForbidden', `Forbidden: updates may not modify a condition of type ${q(t)}`));
    }
  const [was, is] = [old.status?.certificate ?? '', next.status?.certificate ?? ''];
  if (was !== is) {
    if (sub !== 'status') errs.push(err('status.certificate', 'FieldValueForbidden', 'Forbidden: updates may not set certificate content'));
    else if (was) errs.push(err('status.certificate', 'FieldValueForbidden', 'Forbidden: updates may not modify existing certificate content'));
  }
  return errs;
}

/** ValidateSignerName: `<domain with a dot>/<path of DNS-1123 subdomains>`. */
export function validateSignerName(name: string): FieldError[] {
  const f = 'spec.signerName';
  if (!name) return [err(f, 'FieldValueRequired', 'Required value')];
  const segments = name.split('/');
  if (segments.length !== 2)
    return [err(f, 'FieldValueInvalid', `Invalid value: ${q(name)}: must be a fully qualified domain and path of the form 'example.com/signer-name'`)];
  const [domain, path] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(err(f, 'FieldValueTooLong', `Too long: may not be longer than 253`));
  const labels = domain.split('.');
  const badLabel = labels.find((l) => l.length > 63 || !LABEL.test(l));
  if (badLabel !== undefined)
    errs.push(err(f, 'FieldValueInvalid', `Invalid value: ${q(domain)}: validating label ${q(badLabel)}: ${badLabel.length > 63 ? 'must be no more than 63 characters' : LABEL_MSG}`));
  if (labels.length < 2) errs.push(err(f, 'FieldValueInvalid', `Invalid value: ${q(domain)}: should be a domain with at least two segments separated by dots`));
  const badPart = path.split('.').find((l) => l.length > 253 || !SUBDOMAIN.test(l));
  if (badPart !== undefined)
    errs.push(err(f, 'FieldValueInvalid', `Invalid value: ${q(path)}: validating component ${q(badPart)}: ${badPart.length > 253 ? 'must be no more than 253 characters' : SUBDOMAIN_MSG}`));
  if (name.length > 571) errs.push(err(f, 'FieldValueTooLong', 'Too long: may not be longer than 571'));
  return errs;
}

/** validateCertificate: one or more CERTIFICATE PEM blocks, no headers, each a parseable certificate. */
function certificateError(b64: string | undefined): string | undefined {
  if (!b64) return undefined;
  let rest = Buffer.from(b64, 'base64').toString('utf8');
  let blocks = 0;
  for (;;) {
    const block = pemBlock(rest);
    if (!block) break;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${q(block.type)}`;
    try {
      new X509Certificate(block.der);
    } catch (e) {
      return `x509: ${(e as Error).message}`;
    }
    blocks++;
    rest = rest.slice(rest.indexOf(`-----END ${block.type}-----`) + `-----END ${block.type}-----`.length);
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

/** A []byte value as Go's %#v prints it in a field error: []byte{0x2d, 0x2d, …}. */
function goBytes(b: Buffer): string {
  return `[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(', ')}}`;
}
