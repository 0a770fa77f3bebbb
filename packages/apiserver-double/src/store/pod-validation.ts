/**
 * The API server's pod validation in the double. Decoding comes first: a field of the wrong JSON type is a
 * 400 BadRequest, as the apiserver's decoder answers before defaulting. Then ValidatePod on create and update:
 * each field error is one cause of a 422 Invalid. The rules are the kubelet's own copy of the API server's
 * (@nodelet/core config/validation.ts, the one the static pod sources use), so the double refuses what a real
 * cluster refuses (container, volume and object names, paths with '..', probes, ports, resources, ...).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { checkTypes, validateTypedPod } from '@nodelet/core/config';
import type { KubeObject } from '../resources.ts';
import { errors } from '../status.ts';
import { validateEphemeralContainers } from './ephemeral-containers.ts';
import type { FieldError } from './pod-rules.ts';
import { fieldError } from './field-error.ts';

export { fieldError } from './field-error.ts';

/** The decoder: a pod whose fields have the wrong JSON types cannot be handled (400, nothing stored). */
export function decodePod(obj: KubeObject): void {
  const typed = checkTypes<V1Pod>(obj, 'V1Pod');
  if (!typed.value) throw errors.badRequest(`Pod in version "v1" cannot be handled as a Pod: ${typed.errors.join(', ')}`);
}

/** ValidatePod (create) / the spec and metadata part of ValidatePodUpdate: the field errors, empty when valid. */
export function validatePod(obj: KubeObject): FieldError[] {
  const typed = checkTypes<V1Pod>(obj, 'V1Pod');
  if (!typed.value) return typed.errors.map(fieldError);
  return [...validateTypedPod(typed.value).map(fieldError), ...validateEphemeralContainers(obj)];
}
