/**
 * A small device plugin for tests, speaking deviceplugin v1beta1 over a unix socket as any real plugin does:
 * it serves DevicePlugin on `<dir>/<name>.sock`, registers with the kubelet's `<dir>/kubelet.sock`, streams
 * its devices over ListAndWatch (again on every health change), and answers Allocate with an env var naming
 * the devices, a mount per device and a DeviceSpec per device. Every call is recorded.
 */
import path from 'node:path';
import { rm } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import { loadDevicePluginPackage } from '../../../../../../proto/deviceplugin/load.ts';
import type { ListAndWatchResponse } from '../../../../../../proto/deviceplugin/gen/v1beta1/ListAndWatchResponse.ts';
import type { ContainerAllocateResponse } from '../../../../../../proto/deviceplugin/gen/v1beta1/ContainerAllocateResponse.ts';

export interface TestDevicePluginOptions {
  dir: string;
  resource: string;
  /** Socket file name in `dir` (default: test-plugin-<pid>-<n>.sock). */
  endpoint?: string;
  deviceIds: string[];
  preStartRequired?: boolean;
  getPreferredAllocationAvailable?: boolean;
  /** The preferred devices (default: the last `size` available ones, so tests see the preference). */
  prefer?: (available: string[], size: number) => string[];
  /** Allocate's answer for one container's device ids (default: env, mount and device per id). */
  respond?: (ids: string[]) => ContainerAllocateResponse;
  version?: string;
  /** Where the mounted device files live (default: `dir`). */
  hostDir?: string;
  /** Allocate never answers (a hung plugin). */
  allocateHangs?: boolean;
}

let seq = 0;

/** The default Allocate answer: TEST_DEVICES=ids, /dev/null as each device, `<dir>/<id>` mounted at /devices/<id>. */
export function testAllocateResponse(dir: string, ids: string[]): ContainerAllocateResponse {
  return {
    envs: { TEST_DEVICES: ids.join(',') },
    mounts: ids.map((id) => ({ containerPath: `/devices/${id}`, hostPath: path.join(dir, id), readOnly: true })),
    devices: ids.map((id, i) => ({ containerPath: `/dev/testdev${i}`, hostPath: '/dev/null', permissions: 'rw' })),
    annotations: { 'example.com/test-devices': ids.join(',') },
  };
}

export class TestDevicePlugin {
  readonly calls: Array<{ rpc: string; ids: string[] }> = [];
  readonly endpoint: string;
  private readonly health = new Map<string, string>();
  private readonly streams = new Set<grpc.ServerWritableStream<unknown, ListAndWatchResponse>>();
  private server: grpc.Server | undefined;

  constructor(private readonly opts: TestDevicePluginOptions) {
    this.endpoint = opts.endpoint ?? `test-plugin-${process.pid}-${++seq}.sock`;
    for (const id of opts.deviceIds) this.health.set(id, 'Healthy');
  }

  get socket(): string {
    return path.join(this.opts.dir, this.endpoint);
  }

  async serve(): Promise<void> {
    const pkg = loadDevicePluginPackage();
    const server = new grpc.Server();
    const o = this.opts;
    const unary = (rpc: string, ids: (req: any) => string[], answer: (req: any) => unknown) => (call: grpc.ServerUnaryCall<any, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      this.calls.push({ rpc, ids: ids(call.request) });
      if (rpc === 'Allocate' && o.allocateHangs) return;
      cb(null, answer(call.request));
    };
    server.addService(pkg.v1beta1.DevicePlugin.service, {
      GetDevicePluginOptions: unary('GetDevicePluginOptions', () => [], () => ({ preStartRequired: o.preStartRequired ?? false, getPreferredAllocationAvailable: o.getPreferredAllocationAvailable ?? false })),
      ListAndWatch: (call: grpc.ServerWritableStream<unknown, ListAndWatchResponse>) => {
        this.calls.push({ rpc: 'ListAndWatch', ids: [] });
        this.streams.add(call);
        call.write(this.list());
        call.on('cancelled', () => this.streams.delete(call));
      },
      GetPreferredAllocation: unary(
        'GetPreferredAllocation',
        (r) => r.containerRequests[0]?.availableDeviceIDs ?? [],
        (r) => ({ containerResponses: r.containerRequests.map((c: { availableDeviceIDs: string[]; allocationSize: number }) => ({ deviceIDs: (o.prefer ?? ((a, n) => a.slice(-n)))(c.availableDeviceIDs, c.allocationSize) })) }),
      ),
      Allocate: unary('Allocate', (r) => r.containerRequests.flatMap((c: { devicesIds: string[] }) => c.devicesIds), (r) => ({ containerResponses: r.containerRequests.map((c: { devicesIds: string[] }) => (o.respond ?? ((ids) => testAllocateResponse(o.hostDir ?? o.dir, ids)))(c.devicesIds)) })),
      PreStartContainer: unary('PreStartContainer', (r) => r.devicesIds, () => ({})),
    } as grpc.UntypedServiceImplementation);
    await rm(this.socket, { force: true });
    await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${this.socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
    this.server = server;
  }

  /** Register with the kubelet at `<dir>/kubelet.sock`; rejects with the kubelet's message. */
  register(kubeletSocket = path.join(this.opts.dir, 'kubelet.sock')): Promise<void> {
    const pkg = loadDevicePluginPackage();
    const client = new pkg.v1beta1.Registration(`unix://${kubeletSocket}`, grpc.credentials.createInsecure());
    const req = { version: this.opts.version ?? 'v1beta1', endpoint: this.endpoint, resourceName: this.opts.resource, options: { preStartRequired: this.opts.preStartRequired ?? false, getPreferredAllocationAvailable: this.opts.getPreferredAllocationAvailable ?? false } };
    return new Promise((resolve, reject) =>
      client.Register(req, { deadline: Date.now() + 15_000 }, (err) => {
        client.close();
        if (err) reject(Object.assign(new Error(err.details), { code: err.code }));
        else resolve();
      }),
    );
  }

  setHealth(id: string, healthy: boolean): void {
    this.health.set(id, healthy ? 'Healthy' : 'Unhealthy');
    for (const s of this.streams) s.write(this.list());
  }

  /** Stops serving and removes the socket (a plugin that exits). */
  async stop(): Promise<void> {
    for (const s of this.streams) s.end();
    this.streams.clear();
    this.server?.forceShutdown();
    this.server = undefined;
    await rm(this.socket, { force: true });
  }

  private list(): ListAndWatchResponse {
    return { devices: [...this.health].map(([ID, health]) => ({ ID, health })) };
  }
}
