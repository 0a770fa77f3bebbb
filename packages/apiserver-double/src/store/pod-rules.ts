/**
 * Pod-specific registry rules of the real apiserver: defaulting (pkg/apis/core/v1 defaults), create-time
 * status reset, update restrictions, and graceful deletion. Validation is pod-validation.ts.
 */
import type { KubeObject } from '../resources.ts';

export interface FieldError {
  field: string;
  message: string;
  type: string;
}

/** The container defaults of the v1 API (also applied to ephemeral containers added through the subresource). */
export function defaultContainer(c: Record<string, any>): void {
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  if (c.imagePullPolicy === undefined) {
    const image = String(c.image ?? '');
    const tagged = /:[^/:]+$/.test(image.split('@')[0] ?? '');
    const latest = !image.includes('@') && (!tagged || image.endsWith(':latest'));
    c.imagePullPolicy = latest ? 'Always' : 'IfNotPresent';
  }
  c.resources ??= {};
  for (const p of c.ports ?? []) p.protocol ??= 'TCP';
  // SetDefaults_Probe (zeros too: Go's zero value is "unset") and SetDefaults_HTTPGetAction.
  for (const p of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
    if (!p || typeof p !== 'object') continue;
    p.timeoutSeconds ||= 1;
    p.periodSeconds ||= 10;
    p.successThreshold ||= 1;
    p.failureThreshold ||= 3;
  }
  for (const h of [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop]) {
    if (!h || typeof h !== 'object' || !h.httpGet || typeof h.httpGet !== 'object') continue;
    h.httpGet.path ||= '/';
    h.httpGet.scheme ||= 'HTTP';
  }
}

/** Defaults applied on create, as the real API defaulting + admission (DefaultTolerationSeconds) do. */
export function defaultPod(pod: KubeObject): void {
  const spec = (pod.spec ??= {});
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  spec.priority ??= 0;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  spec.serviceAccountName ??= spec.serviceAccount ?? 'default';
  spec.serviceAccount ??= spec.serviceAccountName;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) defaultContainer(c);
  // SetDefaults_Pod: with hostNetwork, a port's hostPort defaults to its containerPort.
  if (spec.hostNetwork) for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) for (const p of c.ports ?? []) p.hostPort ||= p.containerPort;
  const tolerations: any[] = (spec.tolerations ??= []);
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerations.some((t) => t.key === key))
      tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
}

/** The QoS class the real PrepareForCreate stores in status.qosClass. */
export function qosClass(pod: KubeObject): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const cs: any[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const any = cs.some((c) => Object.keys(c.resources?.requests ?? {}).length || Object.keys(c.resources?.limits ?? {}).length);
  if (!any) return 'BestEffort';
  const guaranteed = cs.every((c) => {
    const l = c.resources?.limits ?? {};
    const r = { ...l, ...(c.resources?.requests ?? {}) };
    return ['cpu', 'memory'].every((k) => l[k] !== undefined && String(r[k]) === String(l[k]));
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** Pod spec is immutable on update except images, activeDeadlineSeconds, tolerations additions. */
export function validatePodSpecUpdate(oldPod: KubeObject, newPod: KubeObject): FieldError[] {
  const mask = (spec: any) => {
    const s = structuredClone(spec ?? {});
    for (const l of ['containers', 'initContainers']) for (const c of s[l] ?? []) delete c.image;
    delete s.activeDeadlineSeconds;
    delete s.tolerations;
    return JSON.stringify(s);
  };
  if (mask(oldPod.spec) === mask(newPod.spec)) return [];
  return [
    {
      field: 'spec',
      type: 'FieldValueForbidden',
      message:
        'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    },
  ];
}

/** The grace period a pod DELETE gets (pod strategy CheckGracefulDelete). */
export function podGracePeriod(pod: KubeObject, requested: number | undefined): number {
  if (!pod.spec?.nodeName) return 0;
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return 0;
  const g = requested ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
  return Math.max(0, Number(g));
}
