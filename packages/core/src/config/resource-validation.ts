/**
 * Container resource requirements with the API server's messages (v1.28 pkg/apis/core/validation:
 * ValidateResourceRequirements, validateContainerResourceName, ValidateResourceQuantityValue): standard names
 * (cpu, memory, ephemeral-storage, hugepages-*) or extended resources (a domain-prefixed qualified name),
 * quantities non-negative (integers for extended resources), requests at most the limit, and equal to it for
 * resources that cannot be overcommitted (extended resources and hugepages), which also need a limit.
 * Quantities print as written (the API server prints their canonical form: "0.5" there is "500m").
 */
import type { V1ResourceRequirements } from '@kubernetes/client-node';
import { tryParseQuantity } from '../util/quantity.ts';
import { qualifiedNameMessages, quote } from './meta-validation.ts';

const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage']);

const isHugePages = (n: string) => n.startsWith('hugepages-');
/** helper.IsNativeResource: no domain, or a kubernetes.io domain. */
const isNative = (n: string) => !n.includes('/') || n.includes('kubernetes.io/');
/** helper.IsExtendedResourceName: a domain-prefixed name outside kubernetes.io (example.com/foo). */
export function isExtendedResourceName(n: string): boolean {
  if (isNative(n) || n.startsWith('requests.')) return false;
  return qualifiedNameMessages(`requests.${n}`).length === 0;
}
/** helper.IsOvercommitAllowed. */
const overcommitAllowed = (n: string) => isNative(n) && !isHugePages(n);

/** validateContainerResourceName. */
function resourceNameErrors(n: string, path: string): string[] {
  const errs = qualifiedNameMessages(n).map((m) => `${path}: Invalid value: ${quote(n)}: ${m}`);
  if (!n.includes('/')) {
    if (!STANDARD.has(n) && !isHugePages(n)) errs.push(`${path}: Invalid value: ${quote(n)}: must be a standard resource for containers`);
  } else if (!isNative(n) && !isExtendedResourceName(n)) {
    errs.push(`${path}: Invalid value: ${quote(n)}: doesn't follow extended resource name standard`);
  }
  return errs;
}

type Parsed = Map<string, number>;

function quantities(list: Record<string, unknown> | undefined, path: string, errs: string[]): Parsed {
  const out: Parsed = new Map();
  for (const [name, v] of Object.entries(list ?? {})) {
    const p = `${path}[${name}]`;
    errs.push(...resourceNameErrors(name, p));
    const r = tryParseQuantity(v as string | number);
    if (!r.ok) {
      errs.push(`${p}: Invalid value: ${quote(String(v))}: ${r.reason}`);
      continue;
    }
    if (r.value < 0) errs.push(`${p}: Invalid value: ${quote(String(v))}: must be greater than or equal to 0`);
    if (isExtendedResourceName(name) && !Number.isInteger(Math.round(r.value * 1000) / 1000)) errs.push(`${p}: Invalid value: ${quote(String(v))}: must be an integer`);
    out.set(name, r.value);
  }
  return out;
}

/** ValidateResourceRequirements (`path`: e.g. spec.containers[0].resources). */
export function validateResources(res: V1ResourceRequirements | undefined, path: string): string[] {
  const errs: string[] = [];
  const limits = quantities(res?.limits, `${path}.limits`, errs);
  const reqErrs: string[] = [];
  const requests = quantities(res?.requests, `${path}.requests`, reqErrs);
  errs.push(...reqErrs);
  for (const [name, req] of requests) {
    const lim = limits.get(name);
    const shown = quote(String(res?.requests?.[name]));
    const limShown = String(res?.limits?.[name]);
    if (lim !== undefined) {
      if (req !== lim && !overcommitAllowed(name)) errs.push(`${path}.requests: Invalid value: ${shown}: must be equal to ${name} limit of ${limShown}`);
      else if (req > lim) errs.push(`${path}.requests: Invalid value: ${shown}: must be less than or equal to ${name} limit of ${limShown}`);
    } else if (!overcommitAllowed(name) && !res?.limits?.[name]) {
      errs.push(`${path}.limits: Required value: Limit must be set for non overcommitable resources`);
    }
  }
  const names = [...limits.keys(), ...requests.keys()];
  if (names.some(isHugePages) && !names.some((n) => n === 'cpu' || n === 'memory')) {
    errs.push(`${path}: Forbidden: HugePages require cpu or memory`);
  }
  return errs;
}
