/**
 * node.k8s.io/v1 RuntimeClass as the v1.28 API server validates it (pkg/apis/node/validation): ValidateRuntimeClass
 * — `handler` a DNS-1123 label (required, so "" is invalid), `overhead.podFixed` quantities as container limits
 * (ValidateContainerResourceRequirements under `overhead`: not negative); ValidateRuntimeClassUpdate — `handler`
 * immutable. Not checked here: `scheduling` (nodeSelector labels, tolerations) and extended resource names.
 */
import { validateDnsLabel } from '@nodelet/core/config';
import { tryParseQuantity } from '@nodelet/core/util';
import type { KubeObject } from '../resources.ts';
import type { FieldError } from './pod-rules.ts';
import { fieldError } from './pod-validation.ts';
import { errors } from '../status.ts';

export function validateRuntimeClass(obj: KubeObject): FieldError[] {
  const errs = validateDnsLabel('handler', typeof obj.handler === 'string' ? obj.handler : '').map(fieldError);
  for (const [name, v] of Object.entries((obj.overhead?.podFixed ?? {}) as Record<string, unknown>)) {
    const q = tryParseQuantity(String(v));
    if (!q.ok || q.value < 0) errs.push({ field: `overhead.limits[${name}]`, type: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(String(v))}: must be greater than or equal to 0` });
  }
  return errs;
}

export function validateRuntimeClassUpdate(old: KubeObject, next: KubeObject): FieldError[] {
  if (next.handler === old.handler) return [];
  return [{ field: 'handler', type: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(next.handler ?? '')}: field is immutable` }];
}

/**
 * The RuntimeClass admission plugin on pod create (plugin/pkg/admission/runtimeclass): a pod naming a class that
 * does not exist is refused (403 `pod rejected: RuntimeClass "x" not found`); the class's `overhead.podFixed`
 * becomes the pod's `spec.overhead` (a different one given by the pod is refused), and a pod setting
 * `spec.overhead` without a class overhead is refused. The class's `scheduling` is not merged in.
 */
export function admitRuntimeClass(pod: KubeObject, runtimeClass: (name: string) => KubeObject | undefined): void {
  const name = pod.spec?.runtimeClassName as string | undefined;
  const refuse = (why: string) => {
    const podName = String(pod.metadata?.name ?? '');
    return errors.forbidden(`pods${podName ? ` "${podName}"` : ''} is forbidden: pod rejected: ${why}`, { name: podName, kind: 'pods' });
  };
  const rc = name ? runtimeClass(name) : undefined;
  if (name && !rc) throw refuse(`RuntimeClass ${JSON.stringify(name)} not found`);
  const fixed = rc?.overhead?.podFixed as Record<string, string> | undefined;
  const given = pod.spec?.overhead as Record<string, string> | undefined;
  const hasGiven = given !== undefined && Object.keys(given).length > 0;
  if (fixed) {
    if (hasGiven && !sameQuantities(fixed, given)) throw refuse("Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    pod.spec.overhead = { ...fixed };
  } else if (hasGiven) throw refuse('Pod Overhead set without corresponding RuntimeClass defined Overhead');
}

/** apiequality.Semantic.DeepEqual of two ResourceLists: the same names, quantities equal by value (1Gi = 1024Mi). */
function sameQuantities(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    const x = tryParseQuantity(String(a[k]));
    const y = b[k] === undefined ? undefined : tryParseQuantity(String(b[k]));
    return x.ok && y?.ok === true && x.value === y.value;
  });
}
