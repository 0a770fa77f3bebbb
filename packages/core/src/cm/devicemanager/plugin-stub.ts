/**
 * The device plugin's side of deviceplugin v1beta1, as the kubelet's plugin/v1beta1 Stub (which upstream's
 * sample device plugin and the device manager's tests share): it serves DevicePlugin on `<dir>/<endpoint>`,
 * registers with the kubelet's `<dir>/kubelet.sock`, streams the full device list over ListAndWatch (again after
 * every change), and answers Allocate / GetPreferredAllocation / PreStartContainer through hooks. With
 * watchKubelet() it registers as soon as kubelet.sock exists, and serves anew and registers again when
 * kubelet.sock is re-created (a kubelet that starts removes every socket in the directory) or its own socket goes.
 * With `pluginWatcher` it registers through `<root-dir>/plugins_registry` instead (the kubelet dials it).
 * Used by examples/device-plugin and by the tests' TestDevicePlugin.
 */
import path from 'node:path';
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { rm } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import { loadDevicePluginPackage } from '../../../../../proto/deviceplugin/load.ts';
import type { ListAndWatchResponse } from '../../../../../proto/deviceplugin/gen/v1beta1/ListAndWatchResponse.ts';
import type { ContainerAllocateResponse } from '../../../../../proto/deviceplugin/gen/v1beta1/ContainerAllocateResponse.ts';
import { HEALTHY, KUBELET_SOCKET, SUPPORTED_VERSIONS, UNHEALTHY } from './types.ts';
import { addRegistrationService } from '../../pluginmanager/registration-server.ts';
import { DEVICE_PLUGIN } from '../../pluginmanager/types.ts';

export interface StubDevice {
  id: string;
  healthy: boolean;
  /** NUMA nodes of the device's topology (absent: none reported). */
  numaNodes?: number[];
}

export interface DevicePluginStubOptions {
  /** The kubelet's device plugin directory: the plugin's socket and kubelet.sock live there. */
  dir: string;
  /** The plugin's socket file name in `dir`. */
  endpoint: string;
  resource: string;
  devices: StubDevice[];
  preStartRequired?: boolean;
  getPreferredAllocationAvailable?: boolean;
  /** One container's Allocate answer; a throw fails the RPC with its message. Default: an empty answer. */
  allocate?: (ids: string[]) => ContainerAllocateResponse | Promise<ContainerAllocateResponse>;
  /** GetPreferredAllocation for one container. Default: the first `size` of mustInclude + available. */
  prefer?: (available: string[], mustInclude: string[], size: number) => string[];
  /** Every RPC the plugin receives, with the device ids it names. */
  onCall?: (rpc: string, ids: string[]) => void;
  /**
   * Registration through the kubelet's plugin watcher instead of Register on kubelet.sock: `dir` is then
   * `<root-dir>/plugins_registry` and the socket also serves pluginregistration.Registration (GetInfo: type
   * DevicePlugin, the resource, this socket, v1beta1), as upstream's Stub; the kubelet's verdict comes to onStatus.
   */
  pluginWatcher?: { onStatus(registered: boolean, error: string): void };
}

export interface RegisterOptions {
  /** Default `<dir>/kubelet.sock`. */
  kubeletSocket?: string;
  /** The API version sent (default v1beta1). */
  version?: string;
  timeoutMs?: number;
}

export interface KubeletWatchHandlers {
  /** A registration succeeded: the first one, or again after the kubelet (or the plugin's socket) came back. */
  onRegistered?: (again: boolean) => void;
  /** A registration or restart failed; the next check (fs event or poll) tries again. */
  onError?: (err: Error) => void;
}

type Stream = grpc.ServerWritableStream<unknown, ListAndWatchResponse>;
type Unary = (call: grpc.ServerUnaryCall<any, unknown>, cb: grpc.sendUnaryData<unknown>) => void;

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A file's identity: a socket re-created under the same name differs (inode numbers alone may be reused). */
function identity(file: string): string | undefined {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.birthtimeMs || st.ctimeMs}`;
  } catch {
    return undefined;
  }
}

export class DevicePluginStub {
  private readonly devices = new Map<string, StubDevice>();
  private readonly streams = new Set<Stream>();
  private server: grpc.Server | undefined;

  constructor(protected readonly opts: DevicePluginStubOptions) {
    for (const d of opts.devices) this.devices.set(d.id, { ...d });
  }

  get endpoint(): string {
    return this.opts.endpoint;
  }

  get socket(): string {
    return path.join(this.opts.dir, this.opts.endpoint);
  }

  get kubeletSocket(): string {
    return path.join(this.opts.dir, KUBELET_SOCKET);
  }

  /** The devices as the plugin last streamed them. */
  list(): StubDevice[] {
    return [...this.devices.values()].map((d) => ({ ...d }));
  }

  /** Serves DevicePlugin on the socket (an old socket file is removed first). */
  async serve(): Promise<void> {
    const pkg = loadDevicePluginPackage();
    const server = new grpc.Server();
    const o = this.opts;
    const unary = (rpc: string, ids: (req: any) => string[], answer: (req: any) => unknown): Unary => (call, cb) => {
      o.onCall?.(rpc, ids(call.request));
      Promise.resolve()
        .then(() => answer(call.request))
        .then((res) => cb(null, res), (err: unknown) => cb({ code: grpc.status.UNKNOWN, details: errText(err) }));
    };
    const prefer = o.prefer ?? ((available: string[], must: string[], n: number) => [...new Set([...must, ...available])].slice(0, n));
    server.addService(pkg.v1beta1.DevicePlugin.service, {
      GetDevicePluginOptions: unary('GetDevicePluginOptions', () => [], () => ({ preStartRequired: o.preStartRequired ?? false, getPreferredAllocationAvailable: o.getPreferredAllocationAvailable ?? false })),
      ListAndWatch: (call: Stream) => {
        o.onCall?.('ListAndWatch', []);
        this.streams.add(call);
        call.write(this.message());
        call.on('cancelled', () => this.streams.delete(call));
      },
      GetPreferredAllocation: unary(
        'GetPreferredAllocation',
        (r) => r.containerRequests[0]?.availableDeviceIDs ?? [],
        (r) => ({ containerResponses: r.containerRequests.map((c: { availableDeviceIDs: string[]; mustIncludeDeviceIDs: string[]; allocationSize: number }) => ({ deviceIDs: prefer(c.availableDeviceIDs, c.mustIncludeDeviceIDs, c.allocationSize) })) }),
      ),
      Allocate: unary(
        'Allocate',
        (r) => r.containerRequests.flatMap((c: { devicesIds: string[] }) => c.devicesIds),
        async (r) => ({ containerResponses: await Promise.all(r.containerRequests.map((c: { devicesIds: string[] }) => o.allocate?.(c.devicesIds) ?? {})) }),
      ),
      PreStartContainer: unary('PreStartContainer', (r) => r.devicesIds, () => ({})),
    } as grpc.UntypedServiceImplementation);
    const watcher = o.pluginWatcher;
    if (watcher) {
      addRegistrationService(server, {
        getInfo: () => ({ type: DEVICE_PLUGIN, name: o.resource, endpoint: this.socket, supportedVersions: [...SUPPORTED_VERSIONS] }),
        onStatus: (st) => watcher.onStatus(st.pluginRegistered, st.error),
      });
    }
    await rm(this.socket, { force: true });
    await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${this.socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
    this.server = server;
  }

  /** Register with the kubelet; rejects with the kubelet's message (and its gRPC code). */
  register(r: RegisterOptions = {}): Promise<void> {
    const pkg = loadDevicePluginPackage();
    const client = new pkg.v1beta1.Registration(`unix://${r.kubeletSocket ?? this.kubeletSocket}`, grpc.credentials.createInsecure());
    const o = this.opts;
    const req = { version: r.version ?? SUPPORTED_VERSIONS[0], endpoint: o.endpoint, resourceName: o.resource, options: { preStartRequired: o.preStartRequired ?? false, getPreferredAllocationAvailable: o.getPreferredAllocationAvailable ?? false } };
    return new Promise((resolve, reject) =>
      client.Register(req, { deadline: Date.now() + (r.timeoutMs ?? 15_000) }, (err) => {
        client.close();
        if (err) reject(Object.assign(new Error(err.details), { code: err.code }));
        else resolve();
      }),
    );
  }

  /** Changes one device's health; streams the new list when it changed. Unknown ids are ignored (false). */
  setHealth(id: string, healthy: boolean): boolean {
    const d = this.devices.get(id);
    if (!d || d.healthy === healthy) return false;
    d.healthy = healthy;
    this.send();
    return true;
  }

  /** Replaces the device list and streams it. */
  update(devices: StubDevice[]): void {
    this.devices.clear();
    for (const d of devices) this.devices.set(d.id, { ...d });
    this.send();
  }

  /** Stops serving and removes the socket (a plugin that exits). */
  async stop(): Promise<void> {
    for (const s of this.streams) s.end();
    this.streams.clear();
    this.server?.forceShutdown();
    this.server = undefined;
    await rm(this.socket, { force: true });
  }

  /**
   * Registers whenever needed until the returned function is called: now (once kubelet.sock exists), after
   * kubelet.sock is re-created (serving anew first), and after the plugin's own socket was removed. Checks on
   * every change in the directory and every `pollMs`.
   */
  watchKubelet(handlers: KubeletWatchHandlers = {}, pollMs = 1_000): () => void {
    let registeredWith: string | undefined;
    let running = false;
    let again = false;
    let stopped = false;
    const check = async (): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        const kubelet = identity(this.kubeletSocket);
        const ownGone = !this.server || !existsSync(this.socket);
        if (stopped || kubelet === undefined || (kubelet === registeredWith && !ownGone)) return;
        if (ownGone || registeredWith !== undefined) {
          await this.stop();
          await this.serve();
        }
        await this.register({ timeoutMs: 10_000 });
        const first = registeredWith === undefined;
        // The kubelet.sock that answered: a restarting kubelet may have replaced the file since it was looked at (the
        // old one has no listener), and taking the old identity would register a second time, ending the stream the
        // kubelet just opened (its devices unhealthy until the second registration's list).
        registeredWith = identity(this.kubeletSocket) ?? kubelet;
        handlers.onRegistered?.(!first);
      } catch (err) {
        handlers.onError?.(err instanceof Error ? err : new Error(String(err)));
      } finally {
        running = false;
        if (again && !stopped) {
          again = false;
          void check();
        }
      }
    };
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(this.opts.dir, () => void check());
      watcher.on('error', () => undefined);
    } catch {
      // the directory does not exist yet: the poll finds kubelet.sock once it does
    }
    const timer = setInterval(() => void check(), pollMs);
    void check();
    return () => {
      stopped = true;
      watcher?.close();
      clearInterval(timer);
    };
  }

  private message(): ListAndWatchResponse {
    return {
      devices: [...this.devices.values()].map((d) => ({
        ID: d.id,
        health: d.healthy ? HEALTHY : UNHEALTHY,
        ...(d.numaNodes?.length ? { topology: { nodes: d.numaNodes.map((n) => ({ ID: n })) } } : {}),
      })),
    };
  }

  private send(): void {
    const msg = this.message();
    for (const s of this.streams) s.write(msg);
  }
}
