/**
 * Container validation with the API server's messages (v1.28 pkg/apis/core/validation: validateContainers,
 * validateInitContainers, validateContainerCommon, validateContainerPorts, validateLifecycle,
 * validatePullPolicy, checkHostPortConflicts, validateContainerOnlyForPod). As the API server validates the
 * defaulted pod, a defaulted field left out (imagePullPolicy, terminationMessagePolicy, a port's protocol)
 * validates as its default; an explicit "" is what Go's defaulting also replaces.
 */
import type { V1Container, V1ContainerPort, V1PodSpec, V1Volume } from '@kubernetes/client-node';
import { validateContainerProbes, validateHandler } from '../prober/validation.ts';
import { validateEnv, validateEnvFrom } from './env-validation.ts';
import { notSupported, portNameMessages, portNumMessages } from './field-format.ts';
import { quote, validateDnsLabel } from './meta-validation.ts';
import { validateResources } from './resource-validation.ts';
import { validateContainerSecurityContext } from './security-validation.ts';
import { validateVolumeDevices, validateVolumeMounts } from './volume-validation.ts';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/** validateContainerPorts. */
function validatePorts(ports: V1ContainerPort[] | undefined, path: string): string[] {
  const errs: string[] = [];
  const names = new Set<string>();
  for (const [i, p] of (ports ?? []).entries()) {
    const pp = `${path}[${i}]`;
    if (p.name) {
      const msgs = portNameMessages(p.name);
      if (msgs.length) errs.push(...msgs.map((m) => `${pp}.name: Invalid value: ${quote(p.name)}: ${m}`));
      else if (names.has(p.name)) errs.push(`${pp}.name: Duplicate value: ${quote(p.name)}`);
      else names.add(p.name);
    }
    if (!p.containerPort) errs.push(`${pp}.containerPort: Required value`);
    else errs.push(...portNumMessages(p.containerPort).map((m) => `${pp}.containerPort: Invalid value: ${p.containerPort}: ${m}`));
    if (p.hostPort) errs.push(...portNumMessages(p.hostPort).map((m) => `${pp}.hostPort: Invalid value: ${p.hostPort}: ${m}`));
    if (p.protocol && !PROTOCOLS.includes(p.protocol)) errs.push(notSupported(`${pp}.protocol`, p.protocol, PROTOCOLS));
  }
  return errs;
}

/** validateContainerCommon: what every container (init, sidecar, regular) must satisfy. */
function validateCommon(c: V1Container, volumes: ReadonlyMap<string, V1Volume>, path: string): string[] {
  const errs: string[] = [];
  if (!c.name) errs.push(`${path}.name: Required value`);
  else errs.push(...validateDnsLabel(`${path}.name`, c.name));
  if (!c.image) errs.push(`${path}.image: Required value`);
  const tmp = c.terminationMessagePolicy;
  if (tmp && !TERMINATION_MESSAGE_POLICIES.includes(tmp)) errs.push(notSupported(`${path}.terminationMessagePolicy`, tmp, TERMINATION_MESSAGE_POLICIES));
  errs.push(...validatePorts(c.ports, `${path}.ports`));
  errs.push(...validateEnv(c.env, `${path}.env`), ...validateEnvFrom(c.envFrom, `${path}.envFrom`));
  errs.push(...validateVolumeMounts(c, volumes, `${path}.volumeMounts`), ...validateVolumeDevices(c, volumes, `${path}.volumeDevices`));
  const pull = c.imagePullPolicy;
  if (pull && !PULL_POLICIES.includes(pull)) errs.push(notSupported(`${path}.imagePullPolicy`, pull, PULL_POLICIES));
  errs.push(...validateResources(c.resources, `${path}.resources`));
  errs.push(...validateContainerSecurityContext(c.securityContext, `${path}.securityContext`));
  return errs;
}

function validateLifecycle(c: V1Container, path: string, grace: number | undefined): string[] {
  const lc = c.lifecycle;
  if (!lc) return [];
  return [
    ...(lc.postStart ? validateHandler(lc.postStart, `${path}.lifecycle.postStart`, grace) : []),
    ...(lc.preStop ? validateHandler(lc.preStop, `${path}.lifecycle.preStop`, grace) : []),
  ];
}

/**
 * checkHostPortConflicts: a protocol/hostIP/hostPort used twice among `containers`. With hostNetwork, a hostPort
 * of 0 counts as its containerPort (SetDefaults_Pod defaults it so before the API server validates).
 */
function hostPortConflicts(containers: Array<[number, V1Container]>, path: string, hostNetwork: boolean): string[] {
  const errs: string[] = [];
  const seen = new Set<string>();
  for (const [ci, c] of containers) {
    for (const [pi, p] of (c.ports ?? []).entries()) {
      const hostPort = p.hostPort || (hostNetwork ? p.containerPort : 0);
      if (!hostPort) continue;
      const key = `${p.protocol || 'TCP'}/${p.hostIP ?? ''}/${hostPort}`;
      if (seen.has(key)) errs.push(`${path}[${ci}].ports[${pi}].hostPort: Duplicate value: ${quote(key)}`);
      seen.add(key);
    }
  }
  return errs;
}

/** validateContainers: the regular containers (`grace`: the pod's terminationGracePeriodSeconds). */
export function validateContainers(spec: V1PodSpec, volumes: ReadonlyMap<string, V1Volume>, grace: number | undefined): string[] {
  const list = spec.containers ?? [];
  if (list.length === 0) return ['spec.containers: Required value'];
  const errs: string[] = [];
  const names = new Set<string>();
  for (const [i, c] of list.entries()) {
    const path = `spec.containers[${i}]`;
    errs.push(...validateCommon(c, volumes, path));
    if (names.has(c.name)) errs.push(`${path}.name: Duplicate value: ${quote(c.name ?? '')}`);
    names.add(c.name);
    errs.push(...validateLifecycle(c, path, grace), ...validateContainerProbes(c, path));
    if (c.restartPolicy !== undefined) errs.push(`${path}.restartPolicy: Forbidden: may not be set for non-init containers`);
  }
  errs.push(...hostPortConflicts([...list.entries()], 'spec.containers', spec.hostNetwork === true));
  return errs;
}

/** validateInitContainers: names unique with the regular containers too; only sidecars may have probes and hooks. */
export function validateInitContainers(spec: V1PodSpec, volumes: ReadonlyMap<string, V1Volume>, grace: number | undefined): string[] {
  const errs: string[] = [];
  const names = new Set((spec.containers ?? []).map((c) => c.name));
  for (const [i, c] of (spec.initContainers ?? []).entries()) {
    const path = `spec.initContainers[${i}]`;
    errs.push(...validateCommon(c, volumes, path));
    const rp = c.restartPolicy;
    if (rp !== undefined && rp !== 'Always') errs.push(notSupported(`${path}.restartPolicy`, rp, ['Always']));
    if (names.has(c.name)) errs.push(`${path}.name: Duplicate value: ${quote(c.name ?? '')}`);
    else if (c.name) names.add(c.name);
    errs.push(...hostPortConflicts([[i, c]], 'spec.initContainers', spec.hostNetwork === true));
    if (rp === 'Always') errs.push(...validateLifecycle(c, path, grace), ...validateContainerProbes(c, path));
    else {
      for (const f of ['lifecycle', ...PROBES] as const) {
        if (c[f]) errs.push(`${path}.${f}: Forbidden: may not be set for init containers without restartPolicy=Always`);
      }
    }
  }
  return errs;
}

/** validatePodHostNetworkDeps: with hostNetwork, a hostPort (defaulted to the containerPort) equals the containerPort. */
export function validateHostNetworkPorts(spec: V1PodSpec): string[] {
  if (!spec.hostNetwork) return [];
  const errs: string[] = [];
  for (const [i, c] of (spec.containers ?? []).entries()) {
    for (const [j, p] of (c.ports ?? []).entries()) {
      if (p.hostPort && p.hostPort !== p.containerPort) {
        errs.push(`spec.containers[${i}].ports[${j}].hostPort: Invalid value: ${p.hostPort}: must match \`containerPort\` when \`hostNetwork\` is true`);
      }
    }
  }
  return errs;
}

/** validateContainersOnlyForPod: no leading or trailing whitespace in an image. */
export function validateImagesForPod(spec: V1PodSpec): string[] {
  const errs: string[] = [];
  for (const field of ['containers', 'initContainers'] as const) {
    for (const [i, c] of (spec[field] ?? []).entries()) {
      if (c.image && c.image.trim() !== c.image) {
        errs.push(`spec.${field}[${i}].image: Invalid value: ${quote(c.image)}: must not have leading or trailing whitespace`);
      }
    }
  }
  return errs;
}
