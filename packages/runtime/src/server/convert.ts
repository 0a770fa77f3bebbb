import type { Container } from '../../../../proto/gen/runtime/v1/Container.ts';
import type { ContainerStats } from '../../../../proto/gen/runtime/v1/ContainerStats.ts';
import type { ContainerStatus } from '../../../../proto/gen/runtime/v1/ContainerStatus.ts';
import type { Image } from '../../../../proto/gen/runtime/v1/Image.ts';
import type { PodSandbox } from '../../../../proto/gen/runtime/v1/PodSandbox.ts';
import type { PodSandboxStatus } from '../../../../proto/gen/runtime/v1/PodSandboxStatus.ts';
import type { ImageRecord } from '../images/types.ts';
import type { ContainerSample } from '../runtime/stats.ts';
import type { ContainerRecord, SandboxRecord } from '../state/types.ts';

const nsMode = (own: boolean): 'POD' | 'NODE' => (own ? 'POD' : 'NODE');

export function toSandboxStatus(s: SandboxRecord): PodSandboxStatus {
  const pidOpt = s.config.linux?.securityContext?.namespaceOptions?.pid;
  return {
    id: s.id,
    metadata: s.config.metadata,
    state: s.state,
    createdAt: s.createdAt,
    network: { ip: s.ip, additionalIps: [] },
    linux: {
      namespaces: {
        options: {
          network: nsMode(s.namespaces.net),
          ipc: nsMode(s.namespaces.ipc),
          pid: !s.namespaces.pid ? 'NODE' : pidOpt === 'POD' ? 'POD' : 'CONTAINER',
        },
      },
    },
    labels: s.config.labels,
    annotations: s.config.annotations,
    runtimeHandler: s.runtimeHandler,
  };
}

export function toSandboxItem(s: SandboxRecord): PodSandbox {
  return {
    id: s.id, metadata: s.config.metadata, state: s.state, createdAt: s.createdAt,
    labels: s.config.labels, annotations: s.config.annotations, runtimeHandler: s.runtimeHandler,
  };
}

export function toContainerStatus(c: ContainerRecord, image: ImageRecord | undefined): ContainerStatus {
  return {
    id: c.id,
    metadata: c.config.metadata,
    state: c.state,
    createdAt: c.createdAt,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    exitCode: c.exitCode,
    image: { image: c.image, userSpecifiedImage: c.image },
    imageRef: image?.repoDigests[0] ?? c.imageId,
    imageId: c.imageId,
    reason: c.reason,
    message: c.message,
    labels: c.config.labels,
    annotations: c.config.annotations,
    mounts: c.config.mounts,
    logPath: c.logPath,
    resources: c.config.linux?.resources ? { linux: c.config.linux.resources } : null,
    ...(c.uid !== undefined ? { user: { linux: { uid: c.uid, gid: c.gid ?? 0, supplementalGroups: c.groups ?? (c.config.linux?.securityContext?.supplementalGroups ?? []).map(Number) } } } : {}),
  };
}

export function toContainerItem(c: ContainerRecord, image: ImageRecord | undefined): Container {
  return {
    id: c.id, podSandboxId: c.sandboxId, metadata: c.config.metadata, image: { image: c.image, userSpecifiedImage: c.image },
    imageRef: image?.repoDigests[0] ?? c.imageId, imageId: c.imageId, state: c.state, createdAt: c.createdAt,
    labels: c.config.labels, annotations: c.config.annotations,
  };
}

export function toContainerStats(c: ContainerRecord, s: ContainerSample | undefined): ContainerStats {
  const attributes = { id: c.id, metadata: c.config.metadata, labels: c.config.labels, annotations: c.config.annotations };
  if (!s) return { attributes };
  const limit = c.config.linux?.resources?.memoryLimitInBytes ?? 0;
  return {
    attributes,
    cpu: {
      timestamp: s.timestamp,
      usageCoreNanoSeconds: { value: s.cpuUsageNs },
      ...(s.usageNanoCores !== undefined ? { usageNanoCores: { value: s.usageNanoCores } } : {}),
    },
    memory: {
      timestamp: s.timestamp,
      workingSetBytes: { value: s.workingSetBytes },
      usageBytes: { value: s.memoryUsageBytes },
      rssBytes: { value: s.rssBytes },
      pageFaults: { value: s.pageFaults },
      majorPageFaults: { value: s.majorPageFaults },
      ...(limit > 0 ? { availableBytes: { value: Math.max(0, limit - s.workingSetBytes) } } : {}),
    },
    writableLayer: {
      timestamp: s.timestamp,
      fsId: { mountpoint: s.writableMount },
      usedBytes: { value: s.writableBytes },
      inodesUsed: { value: s.writableInodes },
    },
  };
}

export function toCriImage(i: ImageRecord): Image {
  return {
    id: i.id, repoTags: i.repoTags, repoDigests: i.repoDigests, size: i.size,
    ...(i.uid !== undefined ? { uid: { value: i.uid } } : {}), username: i.username ?? '', pinned: i.pinned,
    spec: { image: i.id },
  };
}

