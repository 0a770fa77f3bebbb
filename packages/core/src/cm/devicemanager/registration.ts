/**
 * The kubelet's Registration service (plugin/v1beta1/server.go) on `<dir>/kubelet.sock`: a request with an
 * unsupported version or a resource name that is not an extended resource is refused with the kubelet's
 * error (gRPC status UNKNOWN, as a plain Go error travels); otherwise the plugin is connected before the
 * call returns, so a plugin that cannot be dialled fails its registration.
 */
import path from 'node:path';
import { rm } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import { isExtendedResourceName } from '../../config/resource-validation.ts';
import { loadDevicePluginPackage } from '../../../../../proto/deviceplugin/load.ts';
import type { RegisterRequest__Output } from '../../../../../proto/deviceplugin/gen/v1beta1/RegisterRequest.ts';
import { SUPPORTED_VERSIONS } from './types.ts';

/** Go's %q of a string slice: ["v1beta1"]. */
const goQuoteList = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

/** The refusal the kubelet returns for a request, before any dialling; undefined when it may proceed. */
export function registrationError(req: Pick<RegisterRequest__Output, 'version' | 'resourceName' | 'endpoint'>, dir: string): string | undefined {
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(req.version)) {
    return `requested API version ${JSON.stringify(req.version)} is not supported by kubelet. Supported versions are ${goQuoteList(SUPPORTED_VERSIONS)}`;
  }
  if (!isExtendedResourceName(req.resourceName)) return `the ResourceName ${JSON.stringify(req.resourceName)} is invalid`;
  // Not a kubelet check: the endpoint is joined to the directory, and must stay a socket inside it.
  const socket = path.resolve(dir, req.endpoint);
  if (!req.endpoint || path.dirname(socket) !== path.resolve(dir)) {
    return `invalid endpoint ${JSON.stringify(req.endpoint)}: the plugin socket must be a file in ${dir}`;
  }
  return undefined;
}

export interface RegistrationServer {
  readonly socket: string;
  close(): Promise<void>;
}

/**
 * Serves Registration on `socket`. `onRegister` connects the plugin (dial, GetDevicePluginOptions, start
 * ListAndWatch) and rejects with the message the plugin receives.
 */
export async function serveRegistration(
  socket: string,
  dir: string,
  onRegister: (req: RegisterRequest__Output) => Promise<void>,
  /** Every request, refused or not (kubelet_device_plugin_registration_total counts them all). */
  onRequest?: (req: RegisterRequest__Output) => void,
): Promise<RegistrationServer> {
  const pkg = loadDevicePluginPackage();
  const server = new grpc.Server();
  server.addService(pkg.v1beta1.Registration.service, {
    Register: (call: grpc.ServerUnaryCall<RegisterRequest__Output, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      onRequest?.(call.request);
      const bad = registrationError(call.request, dir);
      if (bad) return cb({ code: grpc.status.UNKNOWN, details: bad });
      onRegister(call.request).then(
        () => cb(null, {}),
        (err: unknown) => cb({ code: grpc.status.UNKNOWN, details: err instanceof Error ? err.message : String(err) }),
      );
    },
  } as grpc.UntypedServiceImplementation);
  await rm(socket, { force: true });
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  return {
    socket,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        setTimeout(() => server.forceShutdown(), 1_000).unref();
      }),
  };
}
