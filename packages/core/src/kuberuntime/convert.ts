/** CRI shapes → the runtime-agnostic container model. */
import type { Container__Output, ContainerStatus__Output, PodSandbox__Output, PodSandboxStatus__Output } from '../cri/types.ts';
import { CONTAINER_HASH_ANNOTATION, CONTAINER_NAME_LABEL, restartCountFromAnnotations } from '../container/labels.ts';
import type { ContainerState, ContainerStatus, RuntimeContainer, RuntimeSandbox, SandboxStatus } from '../container/types.ts';

export const nsToMs = (ns: number): number => (ns > 0 ? Math.floor(ns / 1_000_000) : 0);

export function toContainerState(s: string): ContainerState {
  switch (s) {
    case 'CONTAINER_CREATED':
      return 'created';
    case 'CONTAINER_RUNNING':
      return 'running';
    case 'CONTAINER_EXITED':
      return 'exited';
    default:
      return 'unknown';
  }
}

export function toRuntimeContainer(c: Container__Output, type: string): RuntimeContainer {
  return {
    id: { type, id: c.id },
    name: c.labels[CONTAINER_NAME_LABEL] ?? c.metadata?.name ?? '',
    image: c.image?.userSpecifiedImage || c.image?.image || '',
    imageRef: c.imageRef,
    hash: c.annotations[CONTAINER_HASH_ANNOTATION] ?? '',
    state: toContainerState(c.state),
    createdAt: c.createdAt,
  };
}

export function toRuntimeSandbox(s: PodSandbox__Output, type: string): RuntimeSandbox {
  return { id: { type, id: s.id }, state: s.state === 'SANDBOX_READY' ? 'ready' : 'notready', createdAt: s.createdAt, attempt: s.metadata?.attempt ?? 0 };
}

export function toContainerStatus(s: ContainerStatus__Output, type: string): ContainerStatus {
  return {
    id: { type, id: s.id },
    name: s.labels[CONTAINER_NAME_LABEL] ?? s.metadata?.name ?? '',
    state: toContainerState(s.state),
    createdAt: nsToMs(s.createdAt),
    startedAt: nsToMs(s.startedAt),
    finishedAt: nsToMs(s.finishedAt),
    exitCode: s.exitCode,
    reason: s.reason,
    message: s.message,
    image: s.image?.userSpecifiedImage || s.image?.image || '',
    imageRef: s.imageRef,
    imageId: s.imageId || s.imageRef,
    restartCount: restartCountFromAnnotations(s.annotations),
    hash: s.annotations[CONTAINER_HASH_ANNOTATION] ?? '',
    logPath: s.logPath,
  };
}

export function toSandboxStatus(s: PodSandboxStatus__Output): SandboxStatus {
  const net = s.linux?.namespaces?.options?.network;
  return {
    id: s.id,
    state: s.state === 'SANDBOX_READY' ? 'ready' : 'notready',
    createdAt: nsToMs(s.createdAt),
    attempt: s.metadata?.attempt ?? 0,
    ip: s.network?.ip ?? '',
    additionalIps: (s.network?.additionalIps ?? []).map((x) => x.ip),
    ...(net ? { hostNetwork: net === 'NODE' } : {}),
  };
}
