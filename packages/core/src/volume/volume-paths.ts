/**
 * Where a pod's volume lives on the node, refusing pod-controlled values that would put it anywhere else: the
 * pod UID (a path-safe name), the volume name (a DNS-1123 label, as the API server requires), the resulting
 * dir (normalised, must stay under `<pods>/<uid>/volumes`), and a hostPath path with a '..' element (the
 * kubelet's hostPath SetUp check). Pods of every source come here, whatever validated them before (an API
 * server that does not validate, a manifest read before validation existed).
 */
import { join } from 'node:path';
import type { V1Volume } from '@kubernetes/client-node';
import { validateDnsLabel, validateUid } from '../config/meta-validation.ts';
import { within } from './container-mounts.ts';
import { pluginOf, type VolumePlugin } from './types.ts';

export type VolumePath = { ok: true; path: string; plugin: VolumePlugin } | { ok: false; message: string };

function uidError(uid: unknown): string | undefined {
  if (typeof uid !== 'string' || uid === '') return 'metadata.uid: Required value';
  return validateUid('metadata.uid', uid)[0];
}

function nameError(name: unknown, index: number): string | undefined {
  const path = `spec.volumes[${index}].name`;
  if (typeof name !== 'string' || name === '') return `${path}: Required value`;
  return validateDnsLabel(path, name)[0];
}

/** The kubelet's hostPath SetUp check (pkg/volume/validation ValidatePathNoBacksteps). */
function hostPathError(path: unknown, index: number): string | undefined {
  if (typeof path !== 'string' || path === '') return `invalid HostPath: spec.volumes[${index}].hostPath.path: Required value`;
  if (path.replace(/\\/g, '/').split('/').includes('..')) return `invalid HostPath \`${path}\`: must not contain '..'`;
  return undefined;
}

/**
 * The host path of volume `v` (index `index` in spec.volumes) of pod `uid`: the hostPath path, or
 * `<podsDir>/<uid>/volumes/kubernetes.io~<plugin>/<name>`; undefined for volume types nodelet does not set up.
 */
export function volumePath(podsDir: string, uid: unknown, v: V1Volume, index: number): VolumePath | undefined {
  const plugin = pluginOf(v as unknown as Record<string, unknown>);
  if (!plugin) return undefined;
  const badName = nameError(v.name, index);
  if (badName) return { ok: false, message: `invalid volume name: ${badName}` };
  if (plugin === 'host-path') {
    const bad = hostPathError(v.hostPath?.path, index);
    return bad ? { ok: false, message: bad } : { ok: true, path: v.hostPath!.path, plugin };
  }
  const badUid = uidError(uid);
  if (badUid) return { ok: false, message: `invalid pod UID: ${badUid}` };
  const base = join(podsDir, uid as string, 'volumes');
  const path = join(base, `kubernetes.io~${plugin}`, v.name);
  if (!within(base, path) || path === base) return { ok: false, message: `volume directory ${JSON.stringify(path)} is outside ${JSON.stringify(base)}` };
  return { ok: true, path, plugin };
}

/** Whether a pods-dir entry may name a pod dir to tear down. */
export function isSafeUid(uid: string): boolean {
  return uidError(uid) === undefined;
}
