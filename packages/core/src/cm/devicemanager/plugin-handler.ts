/**
 * The device manager as the plugin manager's DevicePlugin handler (devicemanager/plugin/v1beta1/handler.go,
 * v1.28): a device plugin that registers through `<root-dir>/plugins_registry` instead of calling
 * Register on kubelet.sock. ValidatePlugin checks the versions and the resource name with the kubelet's
 * errors; RegisterPlugin connects the endpoint as a Register call would; DeRegisterPlugin (socket removed or
 * re-created) disconnects it, so its devices turn unhealthy for the grace period.
 *
 * Not in the kubelet: the endpoint must be a socket under one of `allowedDirs` (the plugin registry, the
 * plugin and device plugin directories), checked on the normalised path and, when it exists, on the real
 * path, so a plugin cannot point the kubelet at a socket elsewhere on the host.
 */
import path from 'node:path';
import { realpath } from 'node:fs/promises';
import { isExtendedResourceName } from '../../config/resource-validation.ts';
import type { PluginHandler } from '../../pluginmanager/types.ts';
import type { DeviceManager } from './manager.ts';
import { SUPPORTED_VERSIONS } from './types.ts';

/** api.Version. */
const API_VERSION = 'v1beta1';

/** Go's %v of a string slice: [a b]. */
const goList = (xs: readonly string[]) => `[${xs.join(' ')}]`;

const inside = (p: string, dirs: readonly string[]) => dirs.some((d) => p.startsWith(path.resolve(d) + path.sep));

/** The refusal of an endpoint outside the allowed directories; undefined when it may be dialled. */
export async function endpointError(endpoint: string, registryDir: string, allowedDirs: readonly string[]): Promise<string | undefined> {
  const p = path.resolve(registryDir, endpoint);
  const refuse = `invalid endpoint ${JSON.stringify(endpoint)}: the plugin socket must be under ${allowedDirs.join(', ')}`;
  if (!inside(p, allowedDirs)) return refuse;
  const real = await realpath(p).catch(() => p);
  // The allowed dirs themselves may sit behind symlinks (e.g. /var/lib/kubelet on another disk).
  const realDirs = await Promise.all(allowedDirs.map((d) => realpath(d).catch(() => path.resolve(d))));
  return inside(real, realDirs) ? undefined : refuse;
}

export function devicePluginHandler(dm: DeviceManager, registryDir: string, allowedDirs: readonly string[]): PluginHandler {
  return {
    async validatePlugin(name, endpoint, versions) {
      if (!versions.some((v) => (SUPPORTED_VERSIONS as readonly string[]).includes(v))) {
        throw new Error(`manager version, ${API_VERSION}, is not among plugin supported versions ${goList(versions)}`);
      }
      if (!isExtendedResourceName(name)) throw new Error(`invalid name of device plugin socket: the ResourceName ${JSON.stringify(name)} is invalid`);
      const bad = await endpointError(endpoint, registryDir, allowedDirs);
      if (bad) throw new Error(bad);
    },
    registerPlugin: (name, endpoint) => dm.register(name, path.resolve(registryDir, endpoint)),
    deRegisterPlugin: (name, endpoint) => dm.deregister(name, path.resolve(registryDir, endpoint)),
  };
}
