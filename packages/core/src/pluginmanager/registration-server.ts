/**
 * A plugin's side of `pluginregistration.Registration` (what the kubelet's plugin watcher calls on a socket in
 * `<root-dir>/plugins_registry`): GetInfo answers the plugin's PluginInfo, NotifyRegistrationStatus hands the
 * kubelet's verdict to the plugin. Added to the plugin's own gRPC server, as upstream's device plugin Stub
 * registers RegisterRegistrationServer beside its DevicePlugin service on the one socket.
 */
import * as grpc from '@grpc/grpc-js';
import { loadPluginRegistrationPackage } from '../../../../proto/pluginregistration/load.ts';
import type { PluginInfoMessage } from './types.ts';

export interface RegistrationStatusMessage {
  pluginRegistered: boolean;
  error: string;
}

export interface RegistrationServiceHandlers {
  /** The PluginInfo; undefined never answers (a hung plugin, for tests). */
  getInfo(): PluginInfoMessage | undefined;
  onStatus(status: RegistrationStatusMessage): void;
}

export function addRegistrationService(server: grpc.Server, h: RegistrationServiceHandlers): void {
  const pkg = loadPluginRegistrationPackage();
  server.addService(pkg.pluginregistration.Registration.service, {
    GetInfo: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      const info = h.getInfo();
      if (info) cb(null, info);
    },
    NotifyRegistrationStatus: (call: grpc.ServerUnaryCall<RegistrationStatusMessage, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      cb(null, {});
      h.onStatus({ pluginRegistered: call.request.pluginRegistered, error: call.request.error });
    },
  } as grpc.UntypedServiceImplementation);
}
