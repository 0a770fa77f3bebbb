/**
 * The typed CRI client interface: what kuberuntime, PLEG, images, stats and prober code depend on.
 * Implementations: `createCriClient` (gRPC, client.ts) and `FakeRuntime` (testing/fake-runtime.ts).
 *
 * Requests are the permissive generated input types (camelCase, every field optional); responses are the
 * generated `__Output` types (defaults filled, int64 as numbers, enums as their names).
 */
import type {
  ContainerEventResponse__Output,
  ContainerStatsRequest,
  ContainerStatsResponse__Output,
  ContainerStatusRequest,
  ContainerStatusResponse__Output,
  CreateContainerRequest,
  CreateContainerResponse__Output,
  ExecSyncRequest,
  ExecSyncResponse__Output,
  ImageFsInfoRequest,
  ImageFsInfoResponse__Output,
  ImageStatusRequest,
  ImageStatusResponse__Output,
  ListContainerStatsRequest,
  ListContainerStatsResponse__Output,
  ListContainersRequest,
  ListContainersResponse__Output,
  ListImagesRequest,
  ListImagesResponse__Output,
  ListPodSandboxRequest,
  ListPodSandboxResponse__Output,
  ListPodSandboxStatsRequest,
  ListPodSandboxStatsResponse__Output,
  PodSandboxStatsRequest,
  PodSandboxStatsResponse__Output,
  PodSandboxStatusRequest,
  PodSandboxStatusResponse__Output,
  PullImageRequest,
  PullImageResponse__Output,
  RemoveContainerRequest,
  RemoveContainerResponse__Output,
  RemoveImageRequest,
  RemoveImageResponse__Output,
  RemovePodSandboxRequest,
  RemovePodSandboxResponse__Output,
  ReopenContainerLogRequest,
  ReopenContainerLogResponse__Output,
  RunPodSandboxRequest,
  RunPodSandboxResponse__Output,
  StartContainerRequest,
  StartContainerResponse__Output,
  StatusRequest,
  StatusResponse__Output,
  UpdateRuntimeConfigRequest,
  UpdateRuntimeConfigResponse__Output,
  StopContainerRequest,
  StopContainerResponse__Output,
  StopPodSandboxRequest,
  StopPodSandboxResponse__Output,
  UpdateContainerResourcesRequest,
  UpdateContainerResourcesResponse__Output,
  VersionRequest,
  VersionResponse__Output,
} from './proto-types.ts';

export type * from './proto-types.ts';

/** gRPC status names, as CriError.code. */
export type CriErrorCode =
  | 'OK'
  | 'CANCELLED'
  | 'UNKNOWN'
  | 'INVALID_ARGUMENT'
  | 'DEADLINE_EXCEEDED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'PERMISSION_DENIED'
  | 'RESOURCE_EXHAUSTED'
  | 'FAILED_PRECONDITION'
  | 'ABORTED'
  | 'OUT_OF_RANGE'
  | 'UNIMPLEMENTED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'DATA_LOSS'
  | 'UNAUTHENTICATED';

/** Per-call options. timeoutMs overrides the client's default deadline; signal cancels the call. */
export interface CriCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Wait (up to the deadline) for the connection instead of failing at once while the runtime is unreachable:
   * the call goes through as soon as the channel reconnects (readiness checks use it with a short deadline).
   */
  waitForReady?: boolean;
}

export interface CriEventsOptions {
  /** Aborting ends the stream quietly (the iterator returns). */
  signal?: AbortSignal;
}

export interface CriRuntimeMethods {
  version(req?: VersionRequest, o?: CriCallOptions): Promise<VersionResponse__Output>;
  status(req?: StatusRequest, o?: CriCallOptions): Promise<StatusResponse__Output>;
  /** The kubelet's UpdatePodCIDR: runtimeConfig.networkConfig.podCidr. */
  updateRuntimeConfig(req: UpdateRuntimeConfigRequest, o?: CriCallOptions): Promise<UpdateRuntimeConfigResponse__Output>;

  runPodSandbox(req: RunPodSandboxRequest, o?: CriCallOptions): Promise<RunPodSandboxResponse__Output>;
  stopPodSandbox(req: StopPodSandboxRequest, o?: CriCallOptions): Promise<StopPodSandboxResponse__Output>;
  removePodSandbox(req: RemovePodSandboxRequest, o?: CriCallOptions): Promise<RemovePodSandboxResponse__Output>;
  podSandboxStatus(req: PodSandboxStatusRequest, o?: CriCallOptions): Promise<PodSandboxStatusResponse__Output>;
  listPodSandbox(req?: ListPodSandboxRequest, o?: CriCallOptions): Promise<ListPodSandboxResponse__Output>;

  createContainer(req: CreateContainerRequest, o?: CriCallOptions): Promise<CreateContainerResponse__Output>;
  startContainer(req: StartContainerRequest, o?: CriCallOptions): Promise<StartContainerResponse__Output>;
  stopContainer(req: StopContainerRequest, o?: CriCallOptions): Promise<StopContainerResponse__Output>;
  removeContainer(req: RemoveContainerRequest, o?: CriCallOptions): Promise<RemoveContainerResponse__Output>;
  listContainers(req?: ListContainersRequest, o?: CriCallOptions): Promise<ListContainersResponse__Output>;
  containerStatus(req: ContainerStatusRequest, o?: CriCallOptions): Promise<ContainerStatusResponse__Output>;
  reopenContainerLog(
    req: ReopenContainerLogRequest,
    o?: CriCallOptions,
  ): Promise<ReopenContainerLogResponse__Output>;
  /** Resources of a created or running container (the CPU manager's cpuset_cpus; runtimes merge unset fields). */
  updateContainerResources(req: UpdateContainerResourcesRequest, o?: CriCallOptions): Promise<UpdateContainerResourcesResponse__Output>;
  /** Deadline: req.timeout seconds + the client default when req.timeout > 0, else the default. */
  execSync(req: ExecSyncRequest, o?: CriCallOptions): Promise<ExecSyncResponse__Output>;

  containerStats(req: ContainerStatsRequest, o?: CriCallOptions): Promise<ContainerStatsResponse__Output>;
  listContainerStats(
    req?: ListContainerStatsRequest,
    o?: CriCallOptions,
  ): Promise<ListContainerStatsResponse__Output>;
  podSandboxStats(req: PodSandboxStatsRequest, o?: CriCallOptions): Promise<PodSandboxStatsResponse__Output>;
  listPodSandboxStats(
    req?: ListPodSandboxStatsRequest,
    o?: CriCallOptions,
  ): Promise<ListPodSandboxStatsResponse__Output>;

  /**
   * Server stream of container lifecycle events (evented PLEG). Ends when the signal aborts or the server
   * ends the stream; throws a CriError when the stream breaks (UNIMPLEMENTED on runtimes without it).
   */
  getContainerEvents(o?: CriEventsOptions): AsyncIterable<ContainerEventResponse__Output>;
}

export interface CriImageMethods {
  /** No deadline unless o.timeoutMs is given (as the kubelet: pulls may be long); cancel with o.signal. */
  pullImage(req: PullImageRequest, o?: CriCallOptions): Promise<PullImageResponse__Output>;
  listImages(req?: ListImagesRequest, o?: CriCallOptions): Promise<ListImagesResponse__Output>;
  /** An absent image is `{ image: null }`, not an error. */
  imageStatus(req: ImageStatusRequest, o?: CriCallOptions): Promise<ImageStatusResponse__Output>;
  removeImage(req: RemoveImageRequest, o?: CriCallOptions): Promise<RemoveImageResponse__Output>;
  imageFsInfo(req?: ImageFsInfoRequest, o?: CriCallOptions): Promise<ImageFsInfoResponse__Output>;
}

export interface CriClient extends CriRuntimeMethods, CriImageMethods {
  /** The endpoint as given (e.g. `unix:///run/containerd/containerd.sock`). */
  readonly endpoint: string;
  /** Closes the channel; later calls fail with CANCELLED / UNAVAILABLE. Idempotent. */
  close(): void;
}

/** Names of the CriClient methods that take a request (for fakes and error injection). */
export type CriMethodName = keyof CriRuntimeMethods | keyof CriImageMethods;

/** Default per-call deadline: kubelet's runtimeRequestTimeout (2m). */
export const DEFAULT_CRI_TIMEOUT_MS = 120_000;

/** A failed CRI call. `code` is the gRPC status name; the message names the operation and endpoint. */
export class CriError extends Error {
  override readonly name = 'CriError';
  readonly code: CriErrorCode;
  /** CRI RPC name, e.g. 'ContainerStatus' ('' when unknown). */
  readonly op: string;
  readonly endpoint: string;
  /** The runtime's own error text (grpc details). */
  readonly details: string;

  constructor(
    code: CriErrorCode,
    message: string,
    extra: { op?: string; endpoint?: string; details?: string; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.code = code;
    this.op = extra.op ?? '';
    this.endpoint = extra.endpoint ?? '';
    this.details = extra.details ?? message;
  }
}

export function isCriError(err: unknown): err is CriError {
  return err instanceof CriError;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof CriError && err.code === 'NOT_FOUND';
}

export function isUnavailable(err: unknown): boolean {
  return err instanceof CriError && err.code === 'UNAVAILABLE';
}

export function isUnimplemented(err: unknown): boolean {
  return err instanceof CriError && err.code === 'UNIMPLEMENTED';
}

export function isDeadlineExceeded(err: unknown): boolean {
  return err instanceof CriError && err.code === 'DEADLINE_EXCEEDED';
}
