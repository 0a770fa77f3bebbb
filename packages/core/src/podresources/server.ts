/**
 * The pod resources gRPC endpoint (ListenAndServePodResources, v1.28): `v1.PodResourcesLister` on
 * `<root-dir>/pod-resources/kubelet.sock`, the directory created 0750 and a stale socket replaced. Every
 * call passes the kubelet's rate limiter (100 qps, burst 10: `ResourceExhausted` "rejected by rate limit");
 * a handler error travels as a plain Go error does (code Unknown, the kubelet's text).
 */
import path from 'node:path';
import { mkdir, rm } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import { loadPodResourcesPackage } from '../../../../proto/podresources/load.ts';
import { TokenBucket } from '../events/token-bucket.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { PodResourcesLister } from './lister.ts';
import { DEFAULT_BURST, DEFAULT_QPS } from './types.ts';

export interface PodResourcesServerOptions {
  clock: Clock;
  logger: Logger;
  qps?: number;
  burst?: number;
}

export interface PodResourcesServer {
  readonly socket: string;
  close(): Promise<void>;
}

/** podresourcesgrpc.ErrorLimitExceeded. */
export const RATE_LIMIT_MESSAGE = 'rejected by rate limit';

type Unary = (call: grpc.ServerUnaryCall<Record<string, string>, unknown>, cb: grpc.sendUnaryData<unknown>) => void;

export async function servePodResources(socket: string, lister: PodResourcesLister, opts: PodResourcesServerOptions): Promise<PodResourcesServer> {
  const limiter = new TokenBucket(opts.clock, opts.qps ?? DEFAULT_QPS, opts.burst ?? DEFAULT_BURST);
  const unary =
    (answer: (req: Record<string, string>) => unknown): Unary =>
    (call, cb) => {
      if (!limiter.tryAccept()) return cb({ code: grpc.status.RESOURCE_EXHAUSTED, details: RATE_LIMIT_MESSAGE });
      let res: unknown;
      try {
        res = answer(call.request);
      } catch (err) {
        return cb({ code: grpc.status.UNKNOWN, details: err instanceof Error ? err.message : String(err) });
      }
      cb(null, res);
    };
  const pkg = loadPodResourcesPackage();
  const server = new grpc.Server();
  server.addService(pkg.v1.PodResourcesLister.service, {
    List: unary(() => ({ podResources: lister.list() })),
    GetAllocatableResources: unary(() => lister.getAllocatableResources()),
    Get: unary((req) => ({ podResources: lister.get(req.podName ?? '', req.podNamespace ?? '') })),
  } as grpc.UntypedServiceImplementation);
  await mkdir(path.dirname(socket), { recursive: true, mode: 0o750 });
  await rm(socket, { force: true });
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  opts.logger.info('Starting to serve the podresources API', { endpoint: `unix://${socket}` });
  return {
    socket,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => void rm(socket, { force: true }).then(() => resolve()));
        setTimeout(() => server.forceShutdown(), 1_000).unref();
      }),
  };
}
