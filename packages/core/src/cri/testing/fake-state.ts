/** Records kept by FakeRuntime and the builders that turn them into CRI response shapes. */
import type {
  Container__Output,
  ContainerConfig,
  ContainerState__Output,
  ContainerStats__Output,
  ContainerStatus__Output,
  Image__Output,
  ImageSpec__Output,
  PodSandbox__Output,
  PodSandboxConfig,
  PodSandboxMetadata__Output,
  PodSandboxState__Output,
  PodSandboxStatus__Output,
  UInt64Value__Output,
} from '../proto-types.ts';

export interface FakeSandbox {
  id: string;
  config: PodSandboxConfig;
  runtimeHandler: string;
  state: PodSandboxState__Output;
  createdAt: number;
  ip: string;
}

export interface FakeContainer {
  id: string;
  sandboxId: string;
  config: ContainerConfig;
  imageRef: string;
  state: ContainerState__Output;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  message: string;
  logPath: string;
  /** Set with FakeRuntime.setUsage; 0 by default. */
  cpuCoreNanos: number;
  workingSetBytes: number;
}

/** The reserved image that is always present (the host's root filesystem). */
export const HOST_IMAGE = 'nodelet.local/host:latest';

/** Milliseconds → CRI nanosecond timestamp. */
export const toNanos = (ms: number): number => ms * 1_000_000;

/** Adds `:latest` to references without a tag or digest. */
export function normalizeRef(ref: string): string {
  const lastSlash = ref.lastIndexOf('/');
  const tail = ref.slice(lastSlash + 1);
  if (ref.includes('@') || tail.includes(':')) return ref;
  return `${ref}:latest`;
}

export const CONTAINER_STATES = ['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN'] as const;
export const SANDBOX_STATES = ['SANDBOX_READY', 'SANDBOX_NOTREADY'] as const;
/** Input enums may be numbers or names; outputs are names. */
export const enumName = <N extends string>(names: readonly N[], v: N | number | undefined): N | undefined =>
  typeof v === 'number' ? names[v] : v;

const u64 = (value: number): UInt64Value__Output => ({ value });

export function imageSpec(image: string): ImageSpec__Output {
  return { image, annotations: {}, userSpecifiedImage: image, runtimeHandler: '', imageRef: '' };
}

export function makeImage(ref: string, id: string, size: number): Image__Output {
  return { id, repoTags: [ref], repoDigests: [], size, uid: null, username: '', spec: imageSpec(ref), pinned: false };
}

function sandboxMetadata(sb: FakeSandbox): PodSandboxMetadata__Output {
  const m = sb.config.metadata ?? {};
  return { name: m.name ?? '', uid: m.uid ?? '', namespace: m.namespace ?? '', attempt: Number(m.attempt ?? 0) };
}

function containerMetadata(c: FakeContainer) {
  const m = c.config.metadata ?? {};
  return { name: m.name ?? '', attempt: Number(m.attempt ?? 0) };
}

export function toPodSandbox(sb: FakeSandbox): PodSandbox__Output {
  return {
    id: sb.id,
    metadata: sandboxMetadata(sb),
    state: sb.state,
    createdAt: sb.createdAt,
    labels: { ...sb.config.labels },
    annotations: { ...sb.config.annotations },
    runtimeHandler: sb.runtimeHandler,
  };
}

export function toSandboxStatus(sb: FakeSandbox): PodSandboxStatus__Output {
  const ns = sb.config.linux?.securityContext?.namespaceOptions;
  return {
    ...toPodSandbox(sb),
    network: { ip: sb.ip, additionalIps: [] },
    linux: {
      namespaces: {
        options: {
          network: (ns?.network as 'POD' | 'NODE' | undefined) ?? 'POD',
          pid: (ns?.pid as 'POD' | 'CONTAINER' | 'NODE' | undefined) ?? 'CONTAINER',
          ipc: (ns?.ipc as 'POD' | 'NODE' | undefined) ?? 'POD',
          targetId: '',
          usernsOptions: null,
        },
      },
    },
  };
}

export function toContainer(c: FakeContainer): Container__Output {
  const image = c.config.image?.image ?? '';
  return {
    id: c.id,
    podSandboxId: c.sandboxId,
    metadata: containerMetadata(c),
    image: imageSpec(image),
    imageRef: c.imageRef,
    state: c.state,
    createdAt: c.createdAt,
    labels: { ...c.config.labels },
    annotations: { ...c.config.annotations },
    imageId: c.imageRef,
  };
}

export function toContainerStatus(c: FakeContainer): ContainerStatus__Output {
  return {
    id: c.id,
    metadata: containerMetadata(c),
    state: c.state,
    createdAt: c.createdAt,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    exitCode: c.exitCode,
    image: imageSpec(c.config.image?.image ?? ''),
    imageRef: c.imageRef,
    reason: c.reason,
    message: c.message,
    labels: { ...c.config.labels },
    annotations: { ...c.config.annotations },
    mounts: [],
    logPath: c.logPath,
    resources: null,
    imageId: c.imageRef,
    user: null,
    stopSignal: 'SIGNAL_RUNTIME_DEFAULT',
  };
}

export function toContainerStats(c: FakeContainer, nowNs: number): ContainerStats__Output {
  return {
    attributes: {
      id: c.id,
      metadata: containerMetadata(c),
      labels: { ...c.config.labels },
      annotations: { ...c.config.annotations },
    },
    cpu: { timestamp: nowNs, usageCoreNanoSeconds: u64(c.cpuCoreNanos), usageNanoCores: null, psi: null },
    memory: {
      timestamp: nowNs,
      workingSetBytes: u64(c.workingSetBytes),
      availableBytes: null,
      usageBytes: u64(c.workingSetBytes),
      rssBytes: null,
      pageFaults: null,
      majorPageFaults: null,
      psi: null,
    },
    writableLayer: null,
    swap: null,
    io: null,
  };
}

/** True when every key=value of `selector` is in `labels`. */
export function matchesLabels(labels: Record<string, string> | undefined, selector?: Record<string, string>): boolean {
  if (!selector) return true;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}
