/**
 * The kubelet's client of one device plugin (plugin/v1beta1/client.go + endpoint.go): dial the plugin's
 * socket, GetDevicePluginOptions, then a ListAndWatch stream whose every message is the full device list;
 * the stream ending (plugin gone) is reported once. Allocate / PreStartContainer / GetPreferredAllocation
 * carry deadlines so a hung plugin fails the pod start instead of blocking it.
 */
import * as grpc from '@grpc/grpc-js';
import { loadDevicePluginPackage } from '../../../../../proto/deviceplugin/load.ts';
import type { DevicePluginClient } from '../../../../../proto/deviceplugin/gen/v1beta1/DevicePlugin.ts';
import type { ListAndWatchResponse__Output } from '../../../../../proto/deviceplugin/gen/v1beta1/ListAndWatchResponse.ts';
import { HEALTHY, type AllocResponse, type PluginDevice, type PluginEndpoint, type PluginOptions } from './types.ts';

export interface EndpointHandlers {
  onDevices(devices: PluginDevice[]): void;
  onClosed(reason: string): void;
}

export interface EndpointTimeouts {
  /** Dial + GetDevicePluginOptions (the kubelet dials with a 10 s timeout). */
  dialMs: number;
  /** Allocate and GetPreferredAllocation. */
  allocateMs: number;
  /** KubeletPreStartContainerRPCTimeoutInSecs (30 s). */
  preStartMs: number;
}

export const DEFAULT_ENDPOINT_TIMEOUTS: EndpointTimeouts = { dialMs: 10_000, allocateMs: 30_000, preStartMs: 30_000 };

export type ConnectEndpoint = (socket: string, resource: string, handlers: EndpointHandlers) => Promise<PluginEndpoint>;

const rpcText = (err: unknown) => (err && typeof err === 'object' && 'details' in err && typeof err.details === 'string' && err.details ? err.details : String(err));

function unary<Req, Res>(fn: (req: Req, md: grpc.Metadata, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: Res) => void) => unknown, req: Req, ms: number): Promise<Res> {
  return new Promise((resolve, reject) =>
    fn(req, new grpc.Metadata(), { deadline: Date.now() + ms }, (err, res) => (err ? reject(new Error(rpcText(err))) : resolve(res as Res))),
  );
}

export function toPluginDevices(msg: ListAndWatchResponse__Output): PluginDevice[] {
  return msg.devices.map((d) => ({ id: d.ID, healthy: d.health === HEALTHY, numaNodes: (d.topology?.nodes ?? []).map((n) => Number(n.ID)) }));
}

export function grpcEndpointConnector(timeouts: EndpointTimeouts = DEFAULT_ENDPOINT_TIMEOUTS): ConnectEndpoint {
  return async (socket, resource, handlers) => {
    const pkg = loadDevicePluginPackage();
    const client = new pkg.v1beta1.DevicePlugin(`unix://${socket}`, grpc.credentials.createInsecure()) as unknown as DevicePluginClient & grpc.Client;
    try {
      await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + timeouts.dialMs, (err) => (err ? reject(err) : resolve())));
    } catch (err) {
      client.close();
      throw new Error(`failed to dial device plugin: ${err instanceof Error ? err.message : String(err)}`);
    }
    let options: PluginOptions;
    try {
      options = await unary(client.GetDevicePluginOptions.bind(client) as never, {}, timeouts.dialMs);
    } catch (err) {
      client.close();
      throw new Error(`failed to get device plugin options: ${(err as Error).message}`);
    }
    let closed = false;
    const stream = client.ListAndWatch({});
    const end = (reason: string) => {
      if (closed) return;
      closed = true;
      handlers.onClosed(reason);
    };
    stream.on('data', (msg: ListAndWatchResponse__Output) => handlers.onDevices(toPluginDevices(msg)));
    stream.on('error', (err) => end(rpcText(err)));
    stream.on('end', () => end('ListAndWatch ended'));
    return {
      resource,
      socket,
      options,
      async allocate(ids) {
        const r = await unary<object, { containerResponses: AllocResponse[] }>(client.Allocate.bind(client) as never, { containerRequests: [{ devicesIds: ids }] }, timeouts.allocateMs);
        return r.containerResponses;
      },
      async preStartContainer(ids) {
        await unary(client.PreStartContainer.bind(client) as never, { devicesIds: ids }, timeouts.preStartMs);
      },
      async getPreferredAllocation(available, mustInclude, size) {
        const req = { containerRequests: [{ availableDeviceIDs: available, mustIncludeDeviceIDs: mustInclude, allocationSize: size }] };
        const r = await unary<object, { containerResponses: Array<{ deviceIDs: string[] }> }>(client.GetPreferredAllocation.bind(client) as never, req, timeouts.allocateMs);
        return r.containerResponses[0]?.deviceIDs ?? [];
      },
      close() {
        closed = true;
        stream.cancel();
        client.close();
      },
    };
  };
}
