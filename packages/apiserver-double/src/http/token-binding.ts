/**
 * TokenRequest's boundObjectRef checks, as the real serviceaccounts/token REST storage makes them for a Pod:
 * the pod must exist (404), run as the service account the token is for (400), and carry the referenced UID
 * (409). Other kinds (Secret, Node) are accepted unchecked by the double.
 */
import type { KubeObject } from '../resources.ts';
import type { Registry } from '../store/registry.ts';
import { errors } from '../status.ts';

export function checkBoundObject(reg: Registry, ns: string, saName: string, ref: { kind?: string; apiVersion?: string; name?: string; uid?: string } | undefined): void {
  if (!ref || ref.kind !== 'Pod') return;
  const pod: KubeObject = reg.get(reg.resource('', 'pods'), ns, ref.name ?? '');
  if ((pod.spec?.serviceAccountName ?? 'default') !== saName)
    throw errors.badRequest(`cannot bind token for serviceaccount "${saName}" to pod running with different serviceaccount name.`);
  if (ref.uid && ref.uid !== pod.metadata.uid)
    throw errors.conflict('Pod', '', ref.name ?? '', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
}
