/**
 * The volume manager as kuberuntime and the kubelet see it: set up a pod's volumes before its containers are
 * created (WaitForAttachAndMount), turn a container's volumeMounts into CRI mounts, tear a pod's volumes down.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { Mount } from '../../../../proto/gen/runtime/v1/Mount.ts';

export type { Mount };

export type MountPodResult = { ok: true } | { ok: false; reason: 'FailedMount'; message: string };

export type ContainerMountsResult = { ok: true; mounts: Mount[] } | { ok: false; message: string };

export interface VolumeHost {
  /** Sets up (or refreshes) every volume of the pod; failures are FailedMount events and a value. */
  mountPod(pod: V1Pod): Promise<MountPodResult>;
  /** CRI mounts for a container's volumeMounts (`vars`: the container's env, for subPathExpr). */
  containerMounts(pod: V1Pod, c: V1Container, vars?: Map<string, string>): Promise<ContainerMountsResult>;
  /** `<root>/pods/<uid>`: where the kubelet-managed etc-hosts file is written (kuberuntime/etc-hosts.ts). */
  podDir?(uid: string): string;
}

/** Mount syscalls behind an interface (tests run without root). */
export interface Mounter {
  /** Whether tmpfs mounts can be made (root). */
  readonly canMount: boolean;
  mountTmpfs(path: string, sizeBytes?: number): Promise<void>;
  unmount(path: string): Promise<void>;
  /** Mount points at or under `dir`. */
  mountPointsUnder(dir: string): Promise<string[]>;
}

/** Where the volume plugins keep a pod's volumes: `<root>/pods/<uid>/volumes/kubernetes.io~<plugin>/<name>`. */
export type VolumePlugin = 'empty-dir' | 'configmap' | 'secret' | 'projected' | 'downward-api' | 'host-path';

export function pluginOf(v: { [k: string]: unknown }): VolumePlugin | undefined {
  const has = (k: string) => v[k] !== undefined && v[k] !== null;
  if (has('emptyDir')) return 'empty-dir';
  if (has('configMap')) return 'configmap';
  if (has('secret')) return 'secret';
  if (has('projected')) return 'projected';
  if (has('downwardAPI')) return 'downward-api';
  if (has('hostPath')) return 'host-path';
  return undefined;
}
