/**
 * A container's volumeMounts as CRI mounts, as the kubelet's makeMounts: the volume's host path (plus subPath
 * / subPathExpr, which must stay inside the volume), readOnly (forced for configMap / secret / downwardAPI /
 * projected), and mount propagation (Bidirectional only for privileged containers).
 */
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { V1Container, V1VolumeMount } from '@kubernetes/client-node';
import { expandVars } from '../kuberuntime/container-env.ts';
import type { ContainerMountsResult, Mount } from './types.ts';

export interface ResolvedVolume {
  /** Host path of the volume (its dir, or the hostPath path). */
  path: string;
  /** The plugin requires read-only mounts (API data volumes). */
  readOnly: boolean;
}

type Propagation = Mount['propagation'];

export function propagationOf(m: V1VolumeMount, c: V1Container): { ok: true; value: Propagation } | { ok: false; message: string } {
  switch (m.mountPropagation ?? 'None') {
    case 'None':
      return { ok: true, value: 'PROPAGATION_PRIVATE' };
    case 'HostToContainer':
      return { ok: true, value: 'PROPAGATION_HOST_TO_CONTAINER' };
    case 'Bidirectional':
      if (!c.securityContext?.privileged) return { ok: false, message: 'Bidirectional mount propagation is available only to privileged containers' };
      return { ok: true, value: 'PROPAGATION_BIDIRECTIONAL' };
    default:
      return { ok: false, message: `invalid MountPropagation mode: ${m.mountPropagation}` };
  }
}

/** Static checks of a subPath: relative and without `..` elements (the kubelet's messages). */
export function checkSubPath(subPath: string): string | undefined {
  if (isAbsolute(subPath)) return `error SubPath \`${subPath}\` must not be an absolute path`;
  if (subPath.split('/').includes('..')) return `unable to provision SubPath \`${subPath}\`: must not contain '..'`;
  return undefined;
}

/** Whether `child` is `parent` or below it. */
export function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Creates `rel` below the real dir `base` one element at a time (0750), as the kubelet's doSafeMakeDir: an
 * existing element that is a link must resolve inside `base`, so no link a container planted in its volume
 * makes directories on the host.
 */
async function safeMakeDir(base: string, rel: string): Promise<void> {
  let cur = base;
  for (const part of rel.split('/').filter((p) => p !== '' && p !== '.')) {
    const next = join(cur, part);
    const st = await lstat(next).catch(() => undefined);
    if (!st) await mkdir(next, { mode: 0o750 });
    else if (st.isSymbolicLink()) {
      const real = await realpath(next);
      if (!within(base, real)) throw new Error('escape');
      cur = real;
      continue;
    } else if (!st.isDirectory()) throw new Error('not a directory');
    cur = next;
  }
}

async function subPathTarget(vol: ResolvedVolume, subPath: string, m: V1VolumeMount, c: V1Container): Promise<{ ok: true; path: string } | { ok: false; message: string }> {
  const bad = checkSubPath(subPath);
  if (bad) return { ok: false, message: bad };
  const target = join(vol.path, subPath);
  const base = await realpath(vol.path).catch(() => vol.path);
  let real = await realpath(target).catch(() => undefined);
  if (real === undefined) {
    try {
      // Like the kubelet, create a missing subPath directory now (0750), refusing to follow links out.
      await safeMakeDir(base, subPath);
      real = await realpath(target);
    } catch {
      return { ok: false, message: `failed to create subPath directory for volumeMount "${m.name}" of container "${c.name}"` };
    }
  }
  if (!within(base, real)) return { ok: false, message: `failed to prepare subPath for volumeMount "${m.name}" of container "${c.name}"` };
  return { ok: true, path: real };
}

export async function buildContainerMounts(
  c: V1Container,
  volumes: ReadonlyMap<string, ResolvedVolume>,
  vars: Map<string, string> = new Map(),
): Promise<ContainerMountsResult> {
  const mounts: Mount[] = [];
  for (const m of c.volumeMounts ?? []) {
    const vol = volumes.get(m.name);
    if (!vol) return { ok: false, message: `cannot find volume "${m.name}" to mount into container "${c.name}"` };
    const prop = propagationOf(m, c);
    if (!prop.ok) return prop;
    let hostPath = vol.path;
    const subPath = m.subPathExpr ? expandVars(m.subPathExpr, vars) : (m.subPath ?? '');
    if (m.subPathExpr && /\$\([^)]*\)/.test(subPath)) return { ok: false, message: `failed to expand subPathExpr \`${m.subPathExpr}\` for volumeMount "${m.name}"` };
    if (subPath) {
      const t = await subPathTarget(vol, subPath, m, c);
      if (!t.ok) return t;
      hostPath = t.path;
    }
    mounts.push({
      containerPath: m.mountPath,
      hostPath,
      readonly: (m.readOnly ?? false) || vol.readOnly,
      propagation: prop.value,
      selinuxRelabel: false,
    } as Mount);
  }
  return { ok: true, mounts };
}
