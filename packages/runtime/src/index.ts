import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ImageStore } from './images/image-store.ts';
import type { ImageStoreApi } from './images/types.ts';
import { Runtime } from './runtime/runtime.ts';
import { serveCri, socketInUse } from './server/grpc-server.ts';
import { imageServiceHandlers } from './server/image-service.ts';
import { runtimeServiceHandlers } from './server/runtime-service.ts';
import { streamHandlers } from './streaming/handlers.ts';
import { startStreamingServer } from './streaming/streaming-server.ts';
import { hostBinaries } from './util/bins.ts';
import type { Logger } from './util/logger.ts';

export type { Logger } from './util/logger.ts';
export { jsonLogger } from './util/logger.ts';
export { RUNTIME_NAME, RUNTIME_VERSION } from './server/runtime-service.ts';
export { findCniBinDir } from './network/cni.ts';

export interface StartRuntimeOptions {
  /** Absolute path of the unix socket to serve CRI on. */
  socketPath: string;
  /** State root: state/ (records), containers/, sandboxes/, images/. */
  rootDir: string;
  logger: Logger;
  /** Manage cgroups when writable (default true). */
  cgroups?: boolean;
  /** SIGTERM → SIGKILL grace at shutdown (default 2000 ms). */
  shutdownGraceMs?: number;
  /** Registries served over plain HTTP (localhost is always plain). */
  insecureRegistries?: string[];
  /** Inject an image store (tests); default: the on-disk store under <rootDir>/images. */
  images?: ImageStoreApi;
  /** CNI plugin dir for isolated pods (root only); default: /opt/cni/bin or /usr/lib/cni when present; null = loopback only. */
  cniBinDir?: string | null;
}

export interface RunningRuntime {
  socketPath: string;
  /** The operations behind the gRPC services (tests drive them directly where the order of calls matters). */
  runtime: Runtime;
  /** Stops every container and sandbox, closes the server, removes the socket. Idempotent. */
  stop(): Promise<void>;
}

/** Start the embedded CRI runtime: image store, state recovery, then the gRPC server. */
export async function startRuntime(opts: StartRuntimeOptions): Promise<RunningRuntime> {
  const log = opts.logger.child('runtime');
  const t0 = Date.now();
  if (await socketInUse(opts.socketPath)) throw new Error(`another process is serving on ${opts.socketPath}`);
  const bins = hostBinaries();
  if (!bins.ok) throw new Error(`nodelet-runtime needs ${bins.missing.join(', ')} on the host`);
  mkdirSync(opts.rootDir, { recursive: true });
  mkdirSync(dirname(opts.socketPath), { recursive: true });
  log.info('starting', { rootDir: opts.rootDir, socket: opts.socketPath, uid: process.getuid?.(), catatonit: bins.bins.catatonit ?? null });
  const images = opts.images ?? new ImageStore(
    { rootDir: join(opts.rootDir, 'images'), logger: opts.logger.child('runtime-images') },
    { insecureRegistries: opts.insecureRegistries ?? [] },
  );
  await images.init();
  log.info('image store ready', { images: images.list().length, ms: Date.now() - t0 });
  const runtime = new Runtime(
    { images, logger: log, bins: bins.bins, ...(opts.cgroups === false ? { cgroups: null } : {}), ...(opts.cniBinDir !== undefined ? { cniBinDir: opts.cniBinDir } : {}) },
    { rootDir: opts.rootDir, shutdownGraceMs: opts.shutdownGraceMs ?? 2000 },
  );
  runtime.init(opts.cgroups !== false);
  const streaming = await startStreamingServer(streamHandlers(runtime.ctx), log.child('streaming'));
  const grpc = await serveCri(opts.socketPath, runtimeServiceHandlers(runtime, streaming), imageServiceHandlers(images, log, opts.rootDir));
  log.info('serving CRI', { socket: opts.socketPath, ms: Date.now() - t0 });
  let stopping: Promise<void> | undefined;
  return {
    socketPath: opts.socketPath,
    runtime,
    stop: () =>
      (stopping ??= (async () => {
        log.info('stopping: containers and sandboxes');
        await streaming.close();
        await runtime.shutdown();
        await grpc.close();
        log.info('stopped', { ms: Date.now() - t0 });
      })()),
  };
}
