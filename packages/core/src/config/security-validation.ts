/**
 * Security context validation with the API server's messages (v1.28 pkg/apis/core/validation:
 * ValidateSecurityContext, validatePodSpecSecurityContext, validateSysctls, ValidateHostSysctl,
 * validateSeccompProfileField, ValidateProcMountType, validateFSGroupChangePolicy). Where the API server
 * prints a whole Go struct as the invalid value (the allowPrivilegeEscalation conflicts, a localhostProfile on
 * another seccomp type), the value here is the field's JSON.
 */
import type { V1PodSecurityContext, V1PodSpec, V1SeccompProfile, V1SecurityContext } from '@kubernetes/client-node';
import { idMessages, notSupported } from './field-format.ts';
import { quote } from './meta-validation.ts';
import { localDescending } from './volume-validation.ts';

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const SYSCTL_MSG = 'must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';

function ids(sc: { runAsUser?: number; runAsGroup?: number; fsGroup?: number }, path: string): string[] {
  const errs: string[] = [];
  for (const f of ['fsGroup', 'runAsUser', 'runAsGroup'] as const) {
    const v = sc[f];
    if (v !== undefined) errs.push(...idMessages(v).map((m) => `${path}.${f}: Invalid value: ${v}: ${m}`));
  }
  return errs;
}

/** validateSeccompProfileField. */
export function validateSeccomp(sp: V1SeccompProfile | undefined, path: string): string[] {
  if (!sp) return [];
  const errs: string[] = [];
  if (!sp.type) errs.push(`${path}.type: Required value: type is required when seccompProfile is set`);
  else if (!SECCOMP_TYPES.includes(sp.type)) errs.push(notSupported(`${path}.type`, sp.type, SECCOMP_TYPES));
  if (sp.type === 'Localhost') {
    if (sp.localhostProfile === undefined) errs.push(`${path}.localhostProfile: Required value: must be set when seccomp type is Localhost`);
    else errs.push(...localDescending(sp.localhostProfile, `${path}.localhostProfile`));
  } else if (sp.localhostProfile !== undefined) {
    errs.push(`${path}.localhostProfile: Invalid value: ${quote(sp)}: can only be set when seccomp type is Localhost`);
  }
  return errs;
}

/** ValidateSecurityContext of a container (`path`: e.g. spec.containers[0].securityContext). */
export function validateContainerSecurityContext(sc: V1SecurityContext | undefined, path: string): string[] {
  if (!sc) return [];
  const errs = ids(sc, path);
  if (sc.procMount !== undefined && sc.procMount !== 'Default' && sc.procMount !== 'Unmasked') {
    errs.push(notSupported(`${path}.procMount`, sc.procMount, ['Default', 'Unmasked']));
  }
  errs.push(...validateSeccomp(sc.seccompProfile, `${path}.seccompProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged) errs.push(`${path}: Invalid value: ${quote(sc)}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`);
    if ((sc.capabilities?.add ?? []).includes('CAP_SYS_ADMIN')) {
      errs.push(`${path}: Invalid value: ${quote(sc)}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`);
    }
  }
  return errs;
}

/** The namespace of a sysctl the kubelet can isolate (component-helpers GetNamespace): net or ipc, else none. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const n = name.replace(/\//g, '.');
  if (n.startsWith('net.')) return 'net';
  if (n.startsWith('kernel.shm') || n.startsWith('kernel.msg') || n === 'kernel.sem' || n.startsWith('fs.mqueue.')) return 'ipc';
  return undefined;
}

function sysctls(spec: V1PodSpec, sc: V1PodSecurityContext, path: string): string[] {
  const errs: string[] = [];
  const names = new Set<string>();
  for (const [i, s] of (sc.sysctls ?? []).entries()) {
    const p = `${path}[${i}].name`;
    if (!s.name) errs.push(`${p}: Required value`);
    else if (s.name.length > 253 || !SYSCTL_NAME.test(s.name)) errs.push(`${p}: Invalid value: ${quote(s.name)}: ${SYSCTL_MSG}`);
    else if (names.has(s.name)) errs.push(`${p}: Duplicate value: ${quote(s.name)}`);
    const ns = sysctlNamespace(s.name ?? '');
    if (spec.hostNetwork && ns === 'net') errs.push(`${p}: Invalid value: ${quote(s.name)}: may not be specified when 'hostNetwork' is true`);
    else if (spec.hostIPC && ns === 'ipc') errs.push(`${p}: Invalid value: ${quote(s.name)}: may not be specified when 'hostIPC' is true`);
    names.add(s.name);
  }
  return errs;
}

/** validatePodSpecSecurityContext (`path`: spec.securityContext). */
export function validatePodSecurityContext(spec: V1PodSpec, path = 'spec.securityContext'): string[] {
  const sc = spec.securityContext;
  if (!sc) return [];
  const errs = ids(sc, path);
  for (const [i, g] of (sc.supplementalGroups ?? []).entries()) {
    errs.push(...idMessages(g).map((m) => `${path}.supplementalGroups[${i}]: Invalid value: ${g}: ${m}`));
  }
  if (spec.shareProcessNamespace && spec.hostPID) {
    errs.push(`${path}.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled`);
  }
  errs.push(...sysctls(spec, sc, `${path}.sysctls`));
  const fcp = sc.fsGroupChangePolicy;
  if (fcp !== undefined && fcp !== 'Always' && fcp !== 'OnRootMismatch') {
    errs.push(notSupported(`${path}.fsGroupChangePolicy`, fcp, ['Always', 'OnRootMismatch']));
  }
  errs.push(...validateSeccomp(sc.seccompProfile, `${path}.seccompProfile`));
  return errs;
}
