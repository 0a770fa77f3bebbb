/**
 * CRI client over @grpc/grpc-js: one channel to the runtime socket shared by RuntimeService and
 * ImageService, a deadline on every unary call, AbortSignal cancellation, and errors mapped to CriError.
 */
import * as grpc from '@grpc/grpc-js';
import { loadCriPackage } from '../../../../proto/load.ts';
import type { Clock } from '../util/clock.ts';
import { realClock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { errorFromGrpc, toGrpcTarget } from './errors.ts';
import type {
  ContainerEventResponse__Output,
  ExecSyncResponse__Output,
  VersionResponse__Output,
} from './proto-types.ts';
import {
  CriError,
  DEFAULT_CRI_TIMEOUT_MS,
  type CriCallOptions,
  type CriClient,
  type CriEventsOptions,
} from './types.ts';

export interface CriClientOptions {
  /** Default per-call deadline in ms (kubelet runtimeRequestTimeout: 2m). */
  timeoutMs?: number;
  logger?: Logger;
  /** Source of wall time for deadlines (tests may inject). */
  clock?: Clock;
}

/** Max message size, as the kubelet's CRI client (16 MiB). */
const MAX_MSG_BYTES = 16 * 1024 * 1024;

type Svc = 'runtime' | 'image';
type UnaryFn = (
  req: unknown,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res?: unknown) => void,
) => grpc.ClientUnaryCall;
type StreamFn = (req: unknown, md: grpc.Metadata, opts: grpc.CallOptions) => grpc.ClientReadableStream<unknown>;

/** Creates a client for `endpoint` (`unix:///path.sock`, or a plain absolute path). Connects lazily. */
export function createCriClient(endpoint: string, opts: CriClientOptions = {}): CriClient {
  const pkg = loadCriPackage().runtime.v1;
  const target = toGrpcTarget(endpoint);
  const channelOpts: grpc.ClientOptions = {
    'grpc.max_receive_message_length': MAX_MSG_BYTES,
    'grpc.max_send_message_length': MAX_MSG_BYTES,
  };
  const runtime = new pkg.RuntimeService(target, grpc.credentials.createInsecure(), channelOpts);
  const image = new pkg.ImageService(target, grpc.credentials.createInsecure(), {
    ...channelOpts,
    channelOverride: runtime.getChannel(),
  });
  const clock = opts.clock ?? realClock;
  const defaultTimeout = opts.timeoutMs ?? DEFAULT_CRI_TIMEOUT_MS;
  const log = opts.logger?.child('cri', { endpoint });
  let closed = false;

  const fn = (svc: Svc, rpc: string): Function => {
    const c = (svc === 'runtime' ? runtime : image) as unknown as Record<string, Function>;
    const f = c[rpc];
    if (typeof f !== 'function') throw new Error(`CRI client has no method ${rpc}`);
    return f.bind(c);
  };

  function unary<Res>(svc: Svc, rpc: string, req: unknown, o: CriCallOptions, dflt: number | null): Promise<Res> {
    const timeoutMs = o.timeoutMs ?? dflt;
    return new Promise<Res>((resolve, reject) => {
      if (closed) return reject(new CriError('CANCELLED', `CRI ${rpc}: client for ${endpoint} is closed`, { op: rpc, endpoint }));
      if (o.signal?.aborted) return reject(aborted(rpc));
      const callOpts: grpc.CallOptions = timeoutMs == null ? {} : { deadline: clock.now() + timeoutMs };
      const md = new grpc.Metadata({ waitForReady: false });
      const onAbort = () => call.cancel();
      const call = (fn(svc, rpc) as UnaryFn)(req ?? {}, md, callOpts, (err, res) => {
        o.signal?.removeEventListener('abort', onAbort);
        if (!err) return resolve(res as Res);
        if (o.signal?.aborted) return reject(aborted(rpc));
        const e = errorFromGrpc(err, rpc, endpoint, timeoutMs);
        log?.debug('CRI call failed', { op: rpc, code: e.code, details: e.details });
        reject(e);
      });
      o.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function aborted(rpc: string): CriError {
    return new CriError('CANCELLED', `CRI ${rpc} to ${endpoint} was cancelled by the caller`, { op: rpc, endpoint });
  }

  async function* getContainerEvents(o: CriEventsOptions = {}): AsyncGenerator<ContainerEventResponse__Output> {
    if (o.signal?.aborted) return;
    const md = new grpc.Metadata({ waitForReady: false });
    const call = (fn('runtime', 'GetContainerEvents') as StreamFn)({}, md, {});
    const onAbort = () => call.cancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const ev of call) yield ev as ContainerEventResponse__Output;
    } catch (err) {
      if (o.signal?.aborted || closed) return;
      throw errorFromGrpc(err as grpc.ServiceError, 'GetContainerEvents', endpoint, null);
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
      call.cancel();
    }
  }

  const r = <Res>(rpc: string, dflt: number | null = defaultTimeout) =>
    (req?: unknown, o: CriCallOptions = {}) => unary<Res>('runtime', rpc, req, o, dflt);
  const i = <Res>(rpc: string, dflt: number | null = defaultTimeout) =>
    (req?: unknown, o: CriCallOptions = {}) => unary<Res>('image', rpc, req, o, dflt);

  const client: CriClient = {
    endpoint,
    version: (req, o) => r<VersionResponse__Output>('Version')({ version: 'v1', ...req }, o),
    status: r('Status'),
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
    execSync: (req, o) => {
      const secs = Number(req.timeout ?? 0);
      return r<ExecSyncResponse__Output>('ExecSync', secs > 0 ? secs * 1000 + defaultTimeout : defaultTimeout)(req, o);
    },
    containerStats: r('ContainerStats'),
    listContainerStats: r('ListContainerStats'),
    podSandboxStats: r('PodSandboxStats'),
    listPodSandboxStats: r('ListPodSandboxStats'),
    getContainerEvents,
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
  return client;
}
