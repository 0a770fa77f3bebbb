/**
 * The kubelet's client of a plugin's `pluginregistration.Registration` service over its unix socket: a
 * blocking dial (Go's grpc.WithBlock: the socket must accept within the timeout), then GetInfo and
 * NotifyRegistrationStatus, each with its own deadline.
 */
import * as grpc from '@grpc/grpc-js';
import { loadPluginRegistrationPackage } from '../../../../proto/pluginregistration/load.ts';
import type { RegistrationClient as GrpcRegistrationClient } from '../../../../proto/pluginregistration/gen/pluginregistration/Registration.ts';
import type { PluginInfo__Output } from '../../../../proto/pluginregistration/gen/pluginregistration/PluginInfo.ts';
import type { DialPlugin, RegistrationClient } from './types.ts';

function call<Res>(fn: (req: object, md: grpc.Metadata, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: Res) => void) => unknown, req: object, ms: number): Promise<Res> {
  return new Promise((resolve, reject) => fn(req, new grpc.Metadata(), { deadline: Date.now() + ms }, (err, res) => (err ? reject(err) : resolve(res as Res))));
}

export const grpcDialPlugin: DialPlugin = async (socketPath, timeoutMs) => {
  const pkg = loadPluginRegistrationPackage();
  const client = new pkg.pluginregistration.Registration(`unix://${socketPath}`, grpc.credentials.createInsecure()) as unknown as GrpcRegistrationClient & grpc.Client;
  try {
    await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve())));
  } catch {
    client.close();
    throw new Error(`failed to dial socket ${socketPath}, err: context deadline exceeded`);
  }
  const out: RegistrationClient = {
    async getInfo(ms) {
      const info = await call<PluginInfo__Output>(client.GetInfo.bind(client) as never, {}, ms);
      return { type: info.type, name: info.name, endpoint: info.endpoint, supportedVersions: info.supportedVersions };
    },
    async notifyRegistrationStatus(registered, error, ms) {
      await call(client.NotifyRegistrationStatus.bind(client) as never, { pluginRegistered: registered, error }, ms);
    },
    close: () => client.close(),
  };
  return out;
};
