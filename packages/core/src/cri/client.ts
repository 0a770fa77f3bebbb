/**
 * CRI client over @grpc/grpc-js: one channel to the runtime socket shared by RuntimeService and
 * ImageService, a deadline on every unary call, AbortSignal cancellation, and errors mapped to CriError.
 */
import * as grpc from '@grpc/grpc-js';
import { loadCriPackage } from '../../../../proto/load.ts';
import type { Clock } from '../util/clock.ts';
import { realClock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { toGrpcTarget } from './errors.ts';
import { serverStream, unaryCall, type CallContext } from './grpc-call.ts';
import { ListMemo } from './list-memo.ts';
import type { ContainerEventResponse__Output, ExecSyncResponse__Output, VersionResponse__Output } from './proto-types.ts';
import { DEFAULT_CRI_TIMEOUT_MS, type CriCallOptions, type CriClient } from './types.ts';

export interface CriClientOptions {
  /** Default per-call deadline in ms (kubelet runtimeRequestTimeout: 2m). */
  timeoutMs?: number;
  logger?: Logger;
  /** Source of wall time for deadlines (tests may inject). */
  clock?: Clock;
}

/** Max message size, as the kubelet's CRI client (16 MiB). */
const MAX_MSG_BYTES = 16 * 1024 * 1024;

/**
 * Reconnect back-off of the channel. gRPC's default (1 s growing ×1.6 to 120 s) leaves the agent blind for
 * tens of seconds after a runtime restart. The kubelet's CRI client starts at 100 ms and caps at 3 s; a local
 * socket connect costs next to nothing, so this caps at 1 s to be back within 2 s of the runtime serving again.
 */
export const RECONNECT_BACKOFF = { initialMs: 100, maxMs: 1_000 };

/** Channel options of every CRI channel: message size caps and the reconnect back-off above. */
export const CRI_CHANNEL_OPTIONS: grpc.ClientOptions = {
  'grpc.max_receive_message_length': MAX_MSG_BYTES,
  'grpc.max_send_message_length': MAX_MSG_BYTES,
  'grpc.initial_reconnect_backoff_ms': RECONNECT_BACKOFF.initialMs,
  'grpc.max_reconnect_backoff_ms': RECONNECT_BACKOFF.maxMs,
};

/** Creates a client for `endpoint` (`unix:///path.sock`, or a plain absolute path). Connects lazily. */
export function createCriClient(endpoint: string, opts: CriClientOptions = {}): CriClient {
  const pkg = loadCriPackage().runtime.v1;
  const target = toGrpcTarget(endpoint);
  const runtime = new pkg.RuntimeService(target, grpc.credentials.createInsecure(), CRI_CHANNEL_OPTIONS);
  const image = new pkg.ImageService(target, grpc.credentials.createInsecure(), {
    ...CRI_CHANNEL_OPTIONS,
    channelOverride: runtime.getChannel(),
  });
  const dflt = opts.timeoutMs ?? DEFAULT_CRI_TIMEOUT_MS;
  let closed = false;
  const ctx: CallContext = {
    endpoint,
    clock: opts.clock ?? realClock,
    log: opts.logger?.child('cri', { endpoint }),
    isClosed: () => closed,
    memo: new ListMemo(),
  };
  const r =
    <Res>(rpc: string, timeout: number | null = dflt) =>
    (req?: unknown, o: CriCallOptions = {}) =>
      unaryCall<Res>(ctx, runtime, rpc, req, o.timeoutMs ?? timeout, o.signal, o.waitForReady);
  const i =
    <Res>(rpc: string, timeout: number | null = dflt) =>
    (req?: unknown, o: CriCallOptions = {}) =>
      unaryCall<Res>(ctx, image, rpc, req, o.timeoutMs ?? timeout, o.signal, o.waitForReady);

  return {
    endpoint,
    version: (req, o) => r<VersionResponse__Output>('Version')({ version: 'v1', ...req }, o),
    status: r('Status'),
    updateRuntimeConfig: r('UpdateRuntimeConfig'),
    runPodSandbox: r('RunPodSandbox'),
    stopPodSandbox: r('StopPodSandbox'),
    removePodSandbox: r('RemovePodSandbox'),
    podSandboxStatus: r('PodSandboxStatus'),
    listPodSandbox: r('ListPodSandbox'),
    createContainer: r('CreateContainer'),
    startContainer: r('StartContainer'),
    stopContainer: r('StopContainer'),
    removeContainer: r('RemoveContainer'),
    listContainers: r('ListContainers'),
    containerStatus: r('ContainerStatus'),
    reopenContainerLog: r('ReopenContainerLog'),
    updateContainerResources: r('UpdateContainerResources'),
    execSync: (req, o) => {
      const secs = Number(req.timeout ?? 0);
      return r<ExecSyncResponse__Output>('ExecSync', secs > 0 ? secs * 1000 + dflt : dflt)(req, o);
    },
    containerStats: r('ContainerStats'),
    listContainerStats: r('ListContainerStats'),
    podSandboxStats: r('PodSandboxStats'),
    listPodSandboxStats: r('ListPodSandboxStats'),
    getContainerEvents: (o = {}) =>
      serverStream<ContainerEventResponse__Output>(ctx, runtime, 'GetContainerEvents', {}, o.signal),
    // As the kubelet: no deadline on pulls unless the caller sets one; cancel with the signal.
    pullImage: i('PullImage', null),
    listImages: i('ListImages'),
    imageStatus: i('ImageStatus'),
    removeImage: i('RemoveImage'),
    imageFsInfo: i('ImageFsInfo'),
    close() {
      if (closed) return;
      closed = true;
      image.close();
      runtime.close();
    },
  };
}
