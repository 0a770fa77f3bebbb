/**
 * A device plugin for tests: the plugin stub (../plugin-stub.ts, a real gRPC server on a unix socket) with every
 * call recorded, an Allocate answer with an env var naming the devices, a mount per device and a DeviceSpec per
 * device, and a preference for the last available devices (so tests see GetPreferredAllocation's effect).
 */
import path from 'node:path';
import type { ContainerAllocateResponse } from '../../../../../../proto/deviceplugin/gen/v1beta1/ContainerAllocateResponse.ts';
import { DevicePluginStub, type RegisterOptions } from '../plugin-stub.ts';

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

export class TestDevicePlugin extends DevicePluginStub {
  readonly calls: Array<{ rpc: string; ids: string[] }>;
  private readonly version: string | undefined;

  constructor(o: TestDevicePluginOptions) {
    const calls: Array<{ rpc: string; ids: string[] }> = [];
    super({
      dir: o.dir,
      endpoint: o.endpoint ?? `test-plugin-${process.pid}-${++seq}.sock`,
      resource: o.resource,
      devices: o.deviceIds.map((id) => ({ id, healthy: true })),
      preStartRequired: o.preStartRequired ?? false,
      getPreferredAllocationAvailable: o.getPreferredAllocationAvailable ?? false,
      prefer: (available, _must, size) => (o.prefer ?? ((a, n) => a.slice(-n)))(available, size),
      allocate: (ids) => (o.allocateHangs ? new Promise<never>(() => undefined) : (o.respond ?? ((x) => testAllocateResponse(o.hostDir ?? o.dir, x)))(ids)),
      onCall: (rpc, ids) => calls.push({ rpc, ids }),
    });
    this.calls = calls;
    this.version = o.version;
  }

  /** Register with the kubelet at `<dir>/kubelet.sock` (or `kubeletSocket`); rejects with the kubelet's message. */
  override register(at?: string | RegisterOptions): Promise<void> {
    const r = typeof at === 'string' ? { kubeletSocket: at } : (at ?? {});
    return super.register({ ...(this.version ? { version: this.version } : {}), ...r });
  }
}
