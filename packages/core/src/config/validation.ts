/**
 * Pod validation = the API server's ValidatePodCreate (v1.28 pkg/apis/core/validation.go) for what a kubelet
 * can see, with its field paths and messages (`field path: error`), in its order: metadata, volumes,
 * containers, init containers, host-network ports, the pod-level fields, then the pod-only image check.
 * The API server validates the defaulted pod; here a defaulted field left out validates as its default, so
 * the same pod gives the same verdict before and after applyApiDefaults.
 *
 * Takes any value: the structural type check runs first (wrong types are field errors, never exceptions),
 * then the semantic checks on the typed copy. Returns the list of errors; empty when valid.
 *
 * Not checked (the API server's, but about objects a kubelet does not have or about scheduling): the
 * serviceAccountToken projection needing a serviceAccountName (admission sets one for API pods), resource
 * claims, topology spread constraints, scheduling gates, label selectors in pod (anti-)affinity, Windows
 * options, and seccomp / AppArmor annotations matching the fields.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { validateContainers, validateHostNetworkPorts, validateImagesForPod, validateInitContainers } from './container-validation.ts';
import { validatePodMeta } from './meta-validation.ts';
import { validateSpecFields, validateSpecPolicies } from './podspec-validation.ts';
import { validatePodSecurityContext } from './security-validation.ts';
import { checkTypes } from './type-check.ts';
import { validateVolumes } from './volume-validation.ts';

/** Errors of a pod to create (any value: wrong types are reported, not thrown); empty when valid. */
export function validatePod(input: unknown): string[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return ['<root>: Invalid value: must be an object'];
  const typed = checkTypes<V1Pod>(input, 'V1Pod');
  if (!typed.value) return typed.errors;
  return validatePodCreate(typed.value);
}

/** Errors of a pod that passed the type check (checkTypes(…, "V1Pod")): the rules of create and update. */
export function validateTypedPod(pod: V1Pod): string[] {
  const errs = validatePodMeta(pod.metadata);
  const spec = pod.spec;
  if (!spec) return [...errs, 'spec: Required value'];
  // terminationGracePeriodSeconds: defaulted to 30; a negative value is accepted (a warning there: "treated as 1").
  const grace = spec.terminationGracePeriodSeconds ?? 30;
  const { errors, valid } = validateVolumes(spec.volumes);
  errs.push(...errors);
  errs.push(...validateContainers(spec, valid, grace), ...validateInitContainers(spec, valid, grace));
  errs.push(...validateHostNetworkPorts(spec), ...validateSpecPolicies(spec));
  errs.push(...validatePodSecurityContext(spec), ...validateSpecFields(spec));
  errs.push(...validateImagesForPod(spec));
  return errs;
}

/** ValidatePodCreate: validateTypedPod, and ephemeral containers only come later (their subresource). */
export function validatePodCreate(pod: V1Pod): string[] {
  const errs = validateTypedPod(pod);
  if ((pod.spec?.ephemeralContainers ?? []).length > 0) errs.push('spec.ephemeralContainers: Forbidden: cannot be set on create');
  return errs;
}
