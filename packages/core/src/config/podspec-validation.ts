/**
 * Pod-level spec fields with the API server's messages (v1.28 pkg/apis/core/validation.ValidatePodSpec after
 * the containers): restartPolicy, dnsPolicy, nodeSelector, imagePullSecrets, affinity, dnsConfig,
 * readinessGates, serviceAccountName, nodeName, activeDeadlineSeconds, hostname, subdomain, tolerations,
 * hostAliases, priorityClassName, runtimeClassName, preemptionPolicy, os. Defaulted enums left out (or "")
 * validate as their defaults. Label-selector contents of pod (anti-)affinity and topology spread constraints
 * are the scheduler's and are not checked here.
 */
import type { V1Affinity, V1NodeSelectorRequirement, V1PodDNSConfig, V1PodSpec, V1Toleration } from '@kubernetes/client-node';
import { goStrings, inclusiveRange, notSupported, validIp } from './field-format.ts';
import { qualifiedNameMessages, quote, validateDnsLabel, validateDnsSubdomain } from './meta-validation.ts';

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/** validation.IsValidLabelValue. */
function labelValueMessages(v: string): string[] {
  if (v.length > 63) return ['must be no more than 63 characters'];
  return LABEL_VALUE.test(v) ? [] : [LABEL_VALUE_MSG];
}

/** unversionedvalidation.ValidateLabelName. */
const labelName = (k: string, path: string) => qualifiedNameMessages(k).map((m) => `${path}: Invalid value: ${quote(k)}: ${m}`);

function nodeSelectorLabels(sel: Record<string, string> | undefined, path: string): string[] {
  const errs: string[] = [];
  for (const [k, v] of Object.entries(sel ?? {})) {
    errs.push(...labelName(k, path), ...labelValueMessages(v).map((m) => `${path}: Invalid value: ${quote(v)}: ${m}`));
  }
  return errs;
}

/** ValidateNodeSelectorRequirement. */
function requirement(rq: V1NodeSelectorRequirement, path: string, checkValues: boolean): string[] {
  const errs: string[] = [];
  const n = (rq.values ?? []).length;
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (n === 0) errs.push(`${path}.values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`);
  } else if (rq.operator === 'Exists' || rq.operator === 'DoesNotExist') {
    if (n > 0) errs.push(`${path}.values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`);
  } else if (rq.operator === 'Gt' || rq.operator === 'Lt') {
    if (n !== 1) errs.push(`${path}.values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`);
  } else errs.push(`${path}.operator: Invalid value: ${quote(rq.operator ?? '')}: not a valid selector operator`);
  errs.push(...labelName(rq.key ?? '', `${path}.key`));
  if (checkValues) {
    for (const [i, v] of (rq.values ?? []).entries()) errs.push(...labelValueMessages(v).map((m) => `${path}.values[${i}]: Invalid value: ${quote(v)}: ${m}`));
  }
  return errs;
}

function weight(w: number | undefined, path: string): string[] {
  return w === undefined || w <= 0 || w > 100 ? [`${path}: Invalid value: ${w ?? 0}: must be in the range 1-100`] : [];
}

/** validateAffinity: node affinity terms; pod (anti-)affinity weights and topology keys. */
function validateAffinity(a: V1Affinity | undefined, path: string): string[] {
  if (!a) return [];
  const errs: string[] = [];
  const na = a.nodeAffinity;
  const req = na?.requiredDuringSchedulingIgnoredDuringExecution;
  if (req) {
    const tp = `${path}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    if ((req.nodeSelectorTerms ?? []).length === 0) errs.push(`${tp}: Required value: must have at least one node selector term`);
    for (const [i, t] of (req.nodeSelectorTerms ?? []).entries()) {
      for (const [j, rq] of (t.matchExpressions ?? []).entries()) errs.push(...requirement(rq, `${tp}[${i}].matchExpressions[${j}]`, true));
    }
  }
  for (const [i, t] of (na?.preferredDuringSchedulingIgnoredDuringExecution ?? []).entries()) {
    const tp = `${path}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    errs.push(...weight(t.weight, `${tp}.weight`));
    for (const [j, rq] of (t.preference?.matchExpressions ?? []).entries()) errs.push(...requirement(rq, `${tp}.preference.matchExpressions[${j}]`, false));
  }
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = a[kind];
    const term = (topologyKey: string | undefined, tp: string) =>
      topologyKey ? labelName(topologyKey, `${tp}.topologyKey`) : [`${tp}.topologyKey: Required value: can not be empty`, ...labelName('', `${tp}.topologyKey`)];
    for (const [i, t] of (pa?.requiredDuringSchedulingIgnoredDuringExecution ?? []).entries()) {
      errs.push(...term(t.topologyKey, `${path}.${kind}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`));
    }
    for (const [i, t] of (pa?.preferredDuringSchedulingIgnoredDuringExecution ?? []).entries()) {
      const tp = `${path}.${kind}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      errs.push(...weight(t.weight, `${tp}.weight`), ...term(t.podAffinityTerm?.topologyKey, `${tp}.podAffinityTerm`));
    }
  }
  return errs;
}

/** validatePodDNSConfig. */
function validateDnsConfig(cfg: V1PodDNSConfig | undefined, policy: string | undefined, path: string): string[] {
  if (policy === 'None') {
    if (!cfg) return [`${path}: Required value: must provide \`dnsConfig\` when \`dnsPolicy\` is None`];
    if ((cfg.nameservers ?? []).length === 0) return [`${path}.nameservers: Required value: must provide at least one DNS nameserver when \`dnsPolicy\` is None`];
  }
  if (!cfg) return [];
  const errs: string[] = [];
  const ns = cfg.nameservers ?? [];
  if (ns.length > 3) errs.push(`${path}.nameservers: Invalid value: ${goStrings(ns)}: must not have more than 3 nameservers`);
  for (const [i, s] of ns.entries()) errs.push(...validIp(`${path}.nameservers[${i}]`, s));
  const searches = cfg.searches ?? [];
  if (searches.length > 32) errs.push(`${path}.searches: Invalid value: ${goStrings(searches)}: must not have more than 32 search paths`);
  if (searches.join(' ').length > 2048) {
    errs.push(`${path}.searches: Invalid value: ${goStrings(searches)}: must not have more than 2048 characters (including spaces) in the search list`);
  }
  for (const [i, s] of searches.entries()) errs.push(...validateDnsSubdomain(`${path}.searches[${i}]`, s.endsWith('.') ? s.slice(0, -1) : s));
  for (const [i, o] of (cfg.options ?? []).entries()) if (!o.name) errs.push(`${path}.options[${i}]: Required value: must not be empty`);
  return errs;
}

/** ValidateTolerations. */
function validateTolerations(list: V1Toleration[] | undefined, path: string): string[] {
  const errs: string[] = [];
  for (const [i, t] of (list ?? []).entries()) {
    const p = `${path}[${i}]`;
    if (t.key) errs.push(...labelName(t.key, `${p}.key`));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(`${p}.operator: Invalid value: ${quote(t.operator ?? '')}: operator must be Exists when \`key\` is empty, which means "match all values and all keys"`);
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(`${p}.effect: Invalid value: ${quote(t.effect ?? '')}: effect must be 'NoExecute' when \`tolerationSeconds\` is set`);
    }
    if (!t.operator || t.operator === 'Equal') {
      const msgs = labelValueMessages(t.value ?? '');
      if (msgs.length) errs.push(`${p}.operator: Invalid value: ${quote(t.value ?? '')}: ${msgs.join(';')}`);
    } else if (t.operator === 'Exists') {
      if (t.value) errs.push(`${p}.operator: Invalid value: ${quote(t.value)}: value must be empty when \`operator\` is 'Exists'`);
    } else errs.push(notSupported(`${p}.operator`, t.operator, ['Equal', 'Exists']));
    if (t.effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) {
      errs.push(notSupported(`${p}.effect`, t.effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
    }
  }
  return errs;
}

/** The pod-level checks before the security context (ValidatePodSpec order). */
export function validateSpecPolicies(spec: V1PodSpec): string[] {
  const errs: string[] = [];
  const rp = spec.restartPolicy;
  if (rp && !['Always', 'OnFailure', 'Never'].includes(rp)) errs.push(notSupported('spec.restartPolicy', rp, ['Always', 'OnFailure', 'Never']));
  const dp = spec.dnsPolicy;
  const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
  if (dp && !dnsPolicies.includes(dp)) errs.push(notSupported('spec.dnsPolicy', dp, dnsPolicies));
  errs.push(...nodeSelectorLabels(spec.nodeSelector, 'spec.nodeSelector'));
  return errs;
}

/** The pod-level checks after the security context (ValidatePodSpec order). */
export function validateSpecFields(spec: V1PodSpec): string[] {
  const errs: string[] = [];
  for (const [i, s] of (spec.imagePullSecrets ?? []).entries()) {
    if (Object.keys(s).some((k) => k !== 'name')) errs.push(`spec.imagePullSecrets[${i}]: Invalid value: ${quote(s)}: only name may be set`);
  }
  errs.push(...validateAffinity(spec.affinity, 'spec.affinity'));
  errs.push(...validateDnsConfig(spec.dnsConfig, spec.dnsPolicy, 'spec.dnsConfig'));
  for (const [i, g] of (spec.readinessGates ?? []).entries()) {
    const ct = g.conditionType ?? '';
    errs.push(...qualifiedNameMessages(ct).map((m) => `spec.readinessGates[${i}].conditionType: Invalid value: ${quote(ct)}: ${m}`));
  }
  if (spec.serviceAccountName) errs.push(...validateDnsSubdomain('spec.serviceAccountName', spec.serviceAccountName));
  if (spec.nodeName) errs.push(...validateDnsSubdomain('spec.nodeName', spec.nodeName));
  const ads = spec.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null && (ads < 1 || ads > 2 ** 31 - 1)) {
    errs.push(`spec.activeDeadlineSeconds: Invalid value: ${ads}: ${inclusiveRange(1, 2 ** 31 - 1)}`);
  }
  if (spec.hostname) errs.push(...validateDnsLabel('spec.hostname', spec.hostname));
  if (spec.subdomain) errs.push(...validateDnsLabel('spec.subdomain', spec.subdomain));
  errs.push(...validateTolerations(spec.tolerations, 'spec.tolerations'));
  for (const [i, a] of (spec.hostAliases ?? []).entries()) {
    errs.push(...validIp(`spec.hostAliases[${i}].ip`, a.ip ?? ''));
    for (const [j, h] of (a.hostnames ?? []).entries()) errs.push(...validateDnsSubdomain(`spec.hostAliases[${i}].hostnames[${j}]`, h));
  }
  if (spec.priorityClassName) errs.push(...validateDnsSubdomain('spec.priorityClassName', spec.priorityClassName));
  if (spec.runtimeClassName !== undefined) errs.push(...validateDnsSubdomain('spec.runtimeClassName', spec.runtimeClassName));
  const pp = spec.preemptionPolicy;
  if (pp !== undefined && pp !== 'PreemptLowerPriority' && pp !== 'Never') {
    errs.push(pp === '' ? 'spec.preemptionPolicy: Required value' : notSupported('spec.preemptionPolicy', pp, ['PreemptLowerPriority', 'Never']));
  }
  const os = spec.os?.name;
  if (spec.os && !os) errs.push('spec.os.name: Required value: cannot be empty');
  else if (spec.os && os !== 'linux' && os !== 'windows') errs.push(notSupported('spec.os', os, ['linux', 'windows']));
  return errs;
}
