/**
 * The CRI seccomp profile of a container or, with no container, of the pod's sandbox, as the kubelet's
 * getSeccompProfile / fieldSeccompProfile (v1.28 pkg/kubelet/kuberuntime/helpers.go).
 */
import { join } from 'node:path';
import type { V1Container, V1Pod, V1SeccompProfile } from '@kubernetes/client-node';
import type { SecurityProfile } from '../cri/types.ts';

/** The kubelet's default `<root-dir>/seccomp` (root dir /var/lib/kubelet). */
export const DEFAULT_SECCOMP_ROOT = '/var/lib/kubelet/seccomp';

/** fieldSeccompProfile: the CRI profile of one API field (Localhost resolved under the kubelet's seccomp root). */
function fieldSeccompProfile(p: V1SeccompProfile | undefined, root: string, runtimeDefault: boolean): { ok: true; profile: SecurityProfile } | { ok: false; message: string } {
  if (!p) return { ok: true, profile: { profileType: runtimeDefault ? 'RuntimeDefault' : 'Unconfined' } };
  if (p.type === 'RuntimeDefault') return { ok: true, profile: { profileType: 'RuntimeDefault' } };
  if (p.type === 'Localhost') {
    if (!p.localhostProfile) return { ok: false, message: 'localhostProfile must be set if seccompProfile type is Localhost.' };
    return { ok: true, profile: { profileType: 'Localhost', localhostRef: join(root, p.localhostProfile) } };
  }
  return { ok: true, profile: { profileType: 'Unconfined' } };
}

/** getSeccompProfile: the container's field first, else the pod's, else RuntimeDefault with seccompDefault, else Unconfined. */
export function seccompProfile(pod: V1Pod, c: V1Container | undefined, seccompRoot: string, seccompDefault = false): { ok: true; profile: SecurityProfile } | { ok: false; message: string } {
  return fieldSeccompProfile(c?.securityContext?.seccompProfile ?? pod.spec?.securityContext?.seccompProfile, seccompRoot, seccompDefault);
}
