import * as grpc from '@grpc/grpc-js';
import { existsSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { loadCriPackage } from '../../../../proto/load.ts';
import type { ImageServiceHandlers } from '../../../../proto/gen/runtime/v1/ImageService.ts';
import type { RuntimeServiceHandlers } from '../../../../proto/gen/runtime/v1/RuntimeService.ts';
import { withListFrames } from './list-frames.ts';

/** A grpc-js server for RuntimeService + ImageService on a unix socket (a stale socket file is replaced). */
export async function serveCri(
  socketPath: string,
  runtime: RuntimeServiceHandlers,
  images: ImageServiceHandlers,
): Promise<{ server: grpc.Server; close(): Promise<void> }> {
  const pkg = loadCriPackage();
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024, 'grpc.max_send_message_length': 16 * 1024 * 1024 });
  server.addService(withListFrames(pkg.runtime.v1.RuntimeService.service), runtime);
  server.addService(pkg.runtime.v1.ImageService.service, images);
  if (await socketInUse(socketPath)) throw new Error(`another process is serving on ${socketPath}`);
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${socketPath}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
  );
  const close = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.forceShutdown(), 2000);
      server.tryShutdown(() => {
        clearTimeout(timer);
        rmSync(socketPath, { force: true });
        resolve();
      });
    });
  return { server, close };
}

/** Whether something accepts connections on the unix socket (a live runtime: never steal its socket). */
export function socketInUse(socketPath: string): Promise<boolean> {
  if (!existsSync(socketPath)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const sock = connect(socketPath);
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}
