/**
 * CRI mounts for a container's volumeMounts of hostPath volumes (the only volume type with nothing to set up:
 * the runtime binds the host path). subPath is joined to the volume's path; other volume types are not
 * mounted here. Type checks (Directory, FileOrCreate...) are not done yet.
 */
import { join } from 'node:path';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { Mount } from '../../../../proto/gen/runtime/v1/Mount.ts';

export function hostPathMounts(pod: V1Pod, c: V1Container): Mount[] {
  const paths = new Map<string, string>();
  for (const v of pod.spec?.volumes ?? []) if (v.hostPath?.path) paths.set(v.name, v.hostPath.path);
  return (c.volumeMounts ?? []).flatMap((m) => {
    const path = paths.get(m.name);
    if (!path) return [];
    return [{ containerPath: m.mountPath, hostPath: m.subPath ? join(path, m.subPath) : path, readonly: m.readOnly ?? false, propagation: 'PROPAGATION_PRIVATE' as const }];
  });
}
