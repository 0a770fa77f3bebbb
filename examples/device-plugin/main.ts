/**
 * An example device plugin (deviceplugin v1beta1, the same protocol NVIDIA's or Intel's plugins speak): it offers
 * N fake devices backed by files, registers with the kubelet's `<plugin-dir>/kubelet.sock`, and registers again
 * whenever the kubelet restarts; or, with --plugins-registry, through the kubelet's plugin watcher (the kubelet
 * finds its socket in `<root-dir>/plugins_registry` and calls GetInfo). See README.md in this folder.
 *
 *   node --import tsx examples/device-plugin/main.ts --devices 2 --device-dir /var/lib/fake-devices
 */
import { mkdirSync, watch } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DevicePluginStub } from '@nodelet/core/cm';
import { FakeDevices } from './fake-devices.ts';

const USAGE = `usage: main.ts [flags]
  --resource-name NAME    extended resource offered (default example.com/fake)
  --devices N             number of devices, fake-0 .. fake-<N-1> (default 2)
  --device-dir DIR        one file per device, DIR/fake-<i> (default /var/lib/fake-devices)
  --plugin-dir DIR        the kubelet's device plugin dir holding kubelet.sock (default /var/lib/kubelet/device-plugins)
  --container-path DIR    where a device's file is mounted in the container (default /dev/fake)
  --endpoint NAME         the plugin's socket file name in --plugin-dir (default <resource-name with / as _>.sock)
  --plugins-registry DIR  register through the kubelet's plugin watcher instead of kubelet.sock: serve on DIR/<endpoint>
                          (DIR = <root-dir>/plugins_registry), answering GetInfo / NotifyRegistrationStatus there
Health: DIR/fake-<i> is Unhealthy while DIR/fake-<i>.unhealthy exists (or DIR/fake-<i> is missing).`;

function flags() {
  const { values } = parseArgs({
    options: {
      'resource-name': { type: 'string', default: 'example.com/fake' },
      devices: { type: 'string', default: '2' },
      'device-dir': { type: 'string', default: '/var/lib/fake-devices' },
      'plugin-dir': { type: 'string', default: '/var/lib/kubelet/device-plugins' },
      'container-path': { type: 'string', default: '/dev/fake' },
      endpoint: { type: 'string' },
      'plugins-registry': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const count = Number(values.devices);
  if (!Number.isInteger(count) || count < 0) throw new Error(`--devices must be a whole number, not ${JSON.stringify(values.devices)}`);
  const resource = values['resource-name'];
  const endpoint = values.endpoint ?? `${resource.replaceAll('/', '_')}.sock`;
  if (endpoint.includes('/')) throw new Error(`--endpoint must be a file name, not ${JSON.stringify(endpoint)}`);
  const registry = values['plugins-registry'] === undefined ? undefined : path.resolve(values['plugins-registry']);
  return { resource, count, endpoint, deviceDir: path.resolve(values['device-dir']), pluginDir: registry ?? path.resolve(values['plugin-dir']), registry, containerPath: values['container-path'] };
}

const log = (msg: string) => console.log(`${new Date().toISOString()} ${msg}`);

async function main(): Promise<void> {
  const f = flags();
  const devices = new FakeDevices({ dir: f.deviceDir, count: f.count, containerPath: f.containerPath });
  devices.create();
  let registrations = 0;
  const stub: DevicePluginStub = new DevicePluginStub({
    dir: f.pluginDir,
    endpoint: f.endpoint,
    resource: f.resource,
    devices: devices.scan(),
    allocate: (ids) => {
      const answer = devices.allocate(ids, stub.list());
      log(`Allocate ${ids.join(',')}`);
      return answer;
    },
    // The kubelet's plugin watcher dials the socket and tells us its verdict (each time it registers the socket anew).
    ...(f.registry
      ? {
          pluginWatcher: {
            onStatus: (ok: boolean, error: string) => log(ok ? `${registrations++ ? 'registered again' : 'registered'} through ${f.registry}` : `registration refused: ${error}`),
          },
        }
      : {}),
  });
  mkdirSync(f.pluginDir, { recursive: true });
  await stub.serve();
  log(`serving ${f.resource} on ${stub.socket}: ${devices.ids.join(', ') || 'no devices'}`);

  // Health: the control files, on every change in the device dir and every second.
  const rescan = () => {
    for (const d of devices.scan()) if (stub.setHealth(d.id, d.healthy)) log(`device ${d.id} is ${d.healthy ? 'Healthy' : 'Unhealthy'}`);
  };
  const dirWatch = watch(f.deviceDir, rescan);
  dirWatch.on('error', () => undefined);
  const poll = setInterval(rescan, 1_000);

  let lastError = '';
  const stopWatch = f.registry ? () => undefined : stub.watchKubelet({
    onRegistered: (again) => {
      lastError = '';
      log(`${again ? 'registered again' : 'registered'} with ${stub.kubeletSocket}`);
    },
    onError: (err) => {
      if (err.message !== lastError) log(`registration failed (retrying): ${err.message}`);
      lastError = err.message;
    },
  });

  const shutdown = async (signal: string) => {
    log(`${signal}: stopping`);
    stopWatch();
    dirWatch.close();
    clearInterval(poll);
    await stub.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(`fake device plugin: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
