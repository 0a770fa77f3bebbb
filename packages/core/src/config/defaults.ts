/**
 * API defaulting (the subset the kubelet relies on downstream) and the kubelet's static pod defaulting
 * (pkg/kubelet/config/common.go): UID from a hash of content + source + node, name `<name>-<node>`,
 * namespace "default", nodeName, config.* annotations, NoExecute toleration.
 */
import type { V1Container, V1Pod, V1Probe } from '@kubernetes/client-node';
import { md5Hex } from '../util/hash.ts';
import { staticPodName } from '../api/pod-helpers.ts';
import { CONFIG_HASH_ANNOTATION, CONFIG_SOURCE_ANNOTATION } from './types.ts';

/** "Always" when the tag is latest or absent (and no digest), else "IfNotPresent". */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const colon = last.lastIndexOf(':');
  const tag = colon >= 0 ? last.slice(colon + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(p: V1Probe | undefined): void {
  if (!p) return;
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
  if (p.httpGet) {
    if (!p.httpGet.path) p.httpGet.path = '/';
    if (!p.httpGet.scheme) p.httpGet.scheme = 'HTTP';
  }
  if (p.grpc && p.grpc.service === undefined) p.grpc.service = '';
}

function defaultContainer(c: V1Container): void {
  if (!c.imagePullPolicy && typeof c.image === 'string') c.imagePullPolicy = defaultPullPolicy(c.image);
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  for (const port of c.ports ?? []) if (!port.protocol) port.protocol = 'TCP';
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  for (const e of c.env ?? []) {
    if (e.valueFrom?.fieldRef && !e.valueFrom.fieldRef.apiVersion) e.valueFrom.fieldRef.apiVersion = 'v1';
  }
  // Requests default to limits when absent.
  const limits = c.resources?.limits;
  if (c.resources && limits) {
    const req = (c.resources.requests ??= {});
    for (const [k, v] of Object.entries(limits)) if (req[k] === undefined) req[k] = v;
  }
}

/** Mutates pod: the API server's defaults for the fields the kubelet reads. */
export function applyApiDefaults(pod: V1Pod): V1Pod {
  const spec = pod.spec;
  if (!spec) return pod;
  // `||=`: Go's defaulting also replaces an explicit "" (the zero value).
  spec.restartPolicy ||= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.schedulerName ||= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  spec.securityContext ??= {};
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  for (const c of spec.containers ?? []) defaultContainer(c);
  // SetDefaults_Pod: with hostNetwork, a port's hostPort defaults to its containerPort.
  if (spec.hostNetwork) {
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) for (const p of c.ports ?? []) p.hostPort ||= p.containerPort;
  }
  for (const v of spec.volumes ?? []) if (v.emptyDir && v.emptyDir.medium === undefined) v.emptyDir.medium = '';
  return pod;
}

export interface StaticPodSource {
  kind: 'file' | 'http';
  /** File path (file source) or URL (http source). */
  id: string;
  nodeName: string;
}

/** Mutates pod: the kubelet's static pod defaults. Call after applyApiDefaults. */
export function applyStaticPodDefaults(pod: V1Pod, src: StaticPodSource): V1Pod {
  const meta = (pod.metadata ??= {});
  if (!meta.uid) {
    const where = src.kind === 'file' ? [`host:${src.nodeName}`, `file:${src.id}`] : [`url:${src.id}`];
    meta.uid = md5Hex(pod, ...where);
  }
  meta.name = staticPodName(meta.name ?? '', src.nodeName);
  if (!meta.namespace) meta.namespace = 'default';
  const spec = pod.spec ?? { containers: [] };
  pod.spec = spec;
  spec.nodeName = src.nodeName;
  meta.annotations = { ...(meta.annotations ?? {}) };
  meta.annotations[CONFIG_HASH_ANNOTATION] = meta.uid;
  meta.annotations[CONFIG_SOURCE_ANNOTATION] = src.kind;
  const tolerations = (spec.tolerations ??= []);
  if (!tolerations.some((t) => t.operator === 'Exists' && !t.key && t.effect === 'NoExecute')) {
    tolerations.push({ operator: 'Exists', effect: 'NoExecute' });
  }
  pod.status = { phase: 'Pending' };
  return pod;
}
