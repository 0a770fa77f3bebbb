/**
 * The device manager (kubelet cm/devicemanager): the Registration service on `<dir>/kubelet.sock`, one
 * endpoint per registered resource, node capacity/allocatable from the plugins' device lists, admission
 * (devices reserved per container, the kubelet's UnexpectedAdmissionError), and at container start the
 * plugin's Allocate (after GetPreferredAllocation when offered) and PreStartContainer (when required), whose
 * envs/mounts/devices/annotations go into the CRI config. Allocations live in the kubelet's checkpoint and
 * come back after a restart without asking the plugin again.
 *
 * Nodelet's admission is synchronous, so the choice of devices happens at admission and the Allocate RPC at
 * the container's start (the kubelet calls it during admission); a plugin's preferred allocation may still
 * swap the reserved devices for free ones then (within the container's NUMA affinity, as devicesToAllocate).
 * What it is built with: manager-deps.ts.
 */
import path from 'node:path';
import { mkdir, readdir, readFile, rm, lstat, writeFile, rename } from 'node:fs/promises';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { PodAdmitHandler, PodAdmitResult } from '../../lifecycle/types.ts';
import { UnexpectedAdmissionError } from '../../lifecycle/predicate-admit.ts';
import { DeviceState, type DeviceCapacity } from './device-state.ts';
import { idsOf, runOptionsOf } from './pod-devices.ts';
import { grpcEndpointConnector, type ConnectEndpoint } from './endpoint.ts';
import { registrationError, serveRegistration, type RegistrationServer } from './registration.ts';
import { decodeCheckpoint, encodeCheckpoint } from './checkpoint.ts';
import { CHECKPOINT_FILE, ENDPOINT_STOP_GRACE_MS, KUBELET_SOCKET, type DeviceRunOptions, type PluginEndpoint } from './types.ts';
import { byCodeUnit } from '../../util/compare.ts';
import type { DeviceManagerDeps } from './manager-deps.ts';

export type PrepareResult = { ok: true; opts: DeviceRunOptions } | { ok: false; message: string };

/** Device resources a container asks for: limits (the API server copies them to requests), else requests. */
export function deviceRequests(c: V1Container, isDevice: (r: string) => boolean): Array<[string, number]> {
  const src = { ...(c.resources?.requests ?? {}), ...(c.resources?.limits ?? {}) } as Record<string, string | number>;
  return Object.entries(src)
    .filter(([r]) => isDevice(r))
    .map(([r, v]) => [r, Number(v)] as [string, number])
    .sort(([a], [b]) => byCodeUnit(a, b));
}

export class DeviceManager {
  readonly state: DeviceState;
  private readonly endpoints = new Map<string, PluginEndpoint>();
  private server: RegistrationServer | undefined;
  private watcher: FSWatcher | undefined;
  private readonly connect: ConnectEndpoint;

  constructor(private readonly deps: DeviceManagerDeps) {
    this.state = new DeviceState(deps.clock, deps.graceMs ?? ENDPOINT_STOP_GRACE_MS);
    this.connect = deps.connect ?? grpcEndpointConnector();
  }

  get socket(): string {
    return path.join(this.deps.dir, KUBELET_SOCKET);
  }

  get checkpointPath(): string {
    return path.join(this.deps.dir, CHECKPOINT_FILE);
  }

  /** Server.Start: the dir made, stale sockets removed (plugins see kubelet.sock come back and re-register). */
  async start(): Promise<void> {
    const { dir, logger } = this.deps;
    await mkdir(dir, { recursive: true, mode: 0o750 });
    for (const name of await readdir(dir)) {
      const p = path.join(dir, name);
      // A file may go between readdir and lstat (a checkpoint write's temporary file renamed into place).
      if (name !== CHECKPOINT_FILE && (await lstat(p).catch(() => undefined))?.isSocket()) await rm(p, { force: true });
    }
    await this.readCheckpoint();
    this.server = await serveRegistration(this.socket, dir, (req) => this.register(req.resourceName, req.endpoint), (req) => {
      this.deps.metrics?.devicePluginRegistrations.inc({ resource_name: req.resourceName });
      const refused = registrationError(req, dir);
      if (refused) this.deps.publish?.({ resource: req.resourceName, change: 'registrationFailed', message: refused });
    });
    this.watcher = watch(dir, () => this.checkSockets());
    this.watcher.on('error', () => undefined);
    logger.info('Starting device plugin registration server', { socket: this.socket });
  }

  async stop(): Promise<void> {
    this.watcher?.close();
    for (const e of this.endpoints.values()) e.close();
    this.endpoints.clear();
    await this.server?.close();
  }

  /** connectClient + PluginConnected: dial, options, ListAndWatch; a re-registration replaces the endpoint. */
  async register(resource: string, endpoint: string): Promise<void> {
    const { logger } = this.deps;
    logger.info('Got registration request from device plugin with resource', { resourceName: resource, endpoint });
    // Register's endpoint is a file name in the dir; the plugin manager's (plugins_registry) is an absolute path.
    const socket = path.isAbsolute(endpoint) ? endpoint : path.join(this.deps.dir, endpoint);
    const ep = await this.connect(socket, resource, {
      onDevices: (devices) => {
        if (this.endpoints.get(resource) !== ep) return;
        const n = this.state.update(resource, devices);
        logger.info('Processed device updates for resource', { resourceName: resource, totalCount: n.total, healthyCount: n.healthy });
        this.deps.publish?.({ resource, change: 'devices', message: `${n.healthy} of ${n.total} devices healthy`, healthy: n.healthy, total: n.total });
        void this.writeCheckpoint();
        this.deps.onChange?.();
      },
      onClosed: (reason) => {
        if (this.endpoints.get(resource) !== ep) return;
        this.disconnect(resource, reason);
      },
    }).catch((err: unknown) => {
      this.deps.publish?.({ resource, change: 'registrationFailed', message: err instanceof Error ? err.message : String(err) });
      throw err;
    });
    this.endpoints.get(resource)?.close();
    this.endpoints.set(resource, ep);
    this.state.connected(resource);
    logger.info('Device plugin connected', { resourceName: resource, preStartRequired: ep.options.preStartRequired, getPreferredAllocationAvailable: ep.options.getPreferredAllocationAvailable });
    this.deps.publish?.({ resource, change: 'registered', message: `device plugin registered on ${endpoint}` });
    this.deps.onChange?.();
  }

  /** The plugin manager's DeRegisterPlugin: disconnects the resource's plugin if it is the one at `socket`. */
  deregister(resource: string, socket: string): void {
    if (this.endpoints.get(resource)?.socket === socket) this.disconnect(resource, `plugin at ${socket} deregistered`);
  }

  capacity(): DeviceCapacity {
    const c = this.state.capacity();
    if (c.removed.length > 0) void this.writeCheckpoint();
    return c;
  }

  /** The resource-allocation admit handler (runs before the predicates, as the kubelet registers it). */
  readonly admitHandler: PodAdmitHandler = { name: 'devicemanager', admit: (attrs) => this.admit(attrs.pod, attrs.otherPods) };

  /** Allocate for each container; devices of pods no longer active (not in otherPods) are freed first. */
  admit(pod: V1Pod, otherPods: V1Pod[]): PodAdmitResult {
    const uid = pod.metadata?.uid ?? '';
    const isDevice = (r: string) => this.state.isDeviceResource(r);
    const containers = [...(pod.spec?.initContainers ?? []).map((c) => ({ c, init: c.restartPolicy !== 'Always' })), ...(pod.spec?.containers ?? []).map((c) => ({ c, init: false }))];
    if (!containers.some(({ c }) => deviceRequests(c, isDevice).length > 0)) return { admit: true };
    this.updateAllocatedDevices([pod, ...otherPods]);
    const reuse = new Map<string, Set<string>>();
    for (const { c, init } of containers) {
      for (const [resource, n] of deviceRequests(c, isDevice)) {
        const r = this.state.reserve(uid, c.name, resource, n, reuse.get(resource));
        if (!r.ok) {
          const message = `Allocate failed due to ${r.message}, which is unexpected`;
          this.deps.publish?.({ resource, change: 'allocationFailed', message, pod: podRefOf(pod), container: c.name });
          return { admit: false, reason: UnexpectedAdmissionError, message };
        }
        const ids = idsOf(this.state.pods.get(uid, c.name, resource)!);
        const set = reuse.get(resource) ?? new Set<string>();
        for (const id of ids) (init ? set.add(id) : set.delete(id));
        reuse.set(resource, set);
      }
    }
    return { admit: true };
  }

  /** UpdateAllocatedDevices: once every source is seen, frees the devices of pods neither active nor held by their source. */
  updateAllocatedDevices(activePods: readonly V1Pod[]): void {
    if (!(this.deps.sourcesReady?.() ?? true)) return;
    const pending = (this.deps.sourcePods?.() ?? []).filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
    const freed = this.state.removeStale(new Set([...activePods, ...pending].map((p) => p.metadata?.uid ?? '')));
    if (freed.length > 0) void this.writeCheckpoint();
  }

  /**
   * GetDeviceRunContainerOptions: Allocate for reservations not yet allocated (GetPreferredAllocation first
   * when the plugin offers it), PreStartContainer when required, then the merged options. Errors are the
   * messages the container's CreateContainerConfigError carries.
   */
  async prepareContainer(pod: V1Pod, c: V1Container): Promise<PrepareResult> {
    const r = await this.prepare(pod, c);
    if (!r.ok) this.deps.publish?.({ resource: r.resource, change: 'allocationFailed', message: r.message, pod: podRefOf(pod), container: c.name });
    return r.ok ? r : { ok: false, message: r.message };
  }

  private async prepare(pod: V1Pod, c: V1Container): Promise<Extract<PrepareResult, { ok: true }> | { ok: false; message: string; resource: string }> {
    const uid = pod.metadata?.uid ?? '';
    const entries = this.state.pods.container(uid, c.name);
    if (entries.length === 0) return { ok: true, opts: runOptionsOf([]) };
    for (const e of entries) {
      const ep = this.state.isConnected(e.resource) ? this.endpoints.get(e.resource) : undefined;
      if (!e.response) {
        if (!ep) return { ok: false, message: `unknown Device Plugin ${e.resource}`, resource: e.resource };
        try {
          await this.preferred(ep, e.podUid, e.containerName, e.resource);
          const ids = idsOf(e);
          const t0 = performance.now();
          const resp = await ep.allocate(ids).finally(() => this.deps.metrics?.devicePluginAllocDuration.observe({ resource_name: e.resource }, (performance.now() - t0) / 1000));
          if (resp.length === 0) return { ok: false, message: `no containers return in allocation response ${JSON.stringify({ containerResponses: [] })}`, resource: e.resource };
          this.state.pods.setResponse(uid, c.name, e.resource, resp[0]!);
          await this.writeCheckpoint();
        } catch (err) {
          return { ok: false, message: (err as Error).message, resource: e.resource };
        }
      }
      if (ep?.options.preStartRequired) {
        try {
          await ep.preStartContainer(idsOf(e));
        } catch (err) {
          return { ok: false, message: `device plugin PreStartContainer rpc failed with err: ${(err as Error).message}`, resource: e.resource };
        }
      }
    }
    return { ok: true, opts: runOptionsOf(this.state.pods.container(uid, c.name)) };
  }

  /** The plugin's preferred devices replace the reservation when free and healthy (within the NUMA affinity). */
  private async preferred(ep: PluginEndpoint, podUid: string, container: string, resource: string): Promise<void> {
    if (!ep.options.getPreferredAllocationAvailable) return;
    const e = this.state.pods.get(podUid, container, resource)!;
    const mine = idsOf(e);
    const { available, mustInclude } = this.state.preferredRequest(resource, mine, this.state.preferredNuma?.(podUid, container));
    if (available.length <= mine.length || mustInclude.length >= mine.length) return;
    const pick = await ep.getPreferredAllocation(available, mustInclude, mine.length);
    if (pick.length === mine.length && pick.every((id) => available.includes(id)) && mustInclude.every((id) => pick.includes(id))) e.deviceIds = this.state.byNuma(resource, pick);
  }

  private disconnect(resource: string, reason: string): void {
    this.endpoints.get(resource)?.close();
    this.endpoints.delete(resource);
    this.state.disconnected(resource);
    this.deps.logger.info('Endpoint became unhealthy', { resourceName: resource, reason });
    this.deps.publish?.({ resource, change: 'disconnected', message: `device plugin disconnected: ${reason}` });
    this.deps.onChange?.();
  }

  /** A plugin whose socket was removed is gone, even before its stream notices. */
  private checkSockets(): void {
    for (const [resource, ep] of this.endpoints) {
      const socket = ep.socket;
      if (!existsSync(socket)) this.disconnect(resource, `socket ${socket} removed`);
    }
  }

  private async readCheckpoint(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.checkpointPath, 'utf8');
    } catch {
      return;
    }
    const cp = decodeCheckpoint(text);
    if (!cp.ok) {
      this.deps.logger.warn('Continue after failing to read checkpoint file. Device allocation info may NOT be up-to-date', { file: this.checkpointPath, err: cp.message });
      return;
    }
    for (const e of cp.entries) this.state.pods.insert(e);
    for (const r of Object.keys(cp.registered)) this.state.restored(r);
  }

  private writes: Promise<void> = Promise.resolve();

  /** Checkpoint writes in order, each a whole file renamed into place. */
  private writeCheckpoint(): Promise<void> {
    this.writes = this.writes.then(() => this.writeCheckpointNow());
    return this.writes;
  }

  private async writeCheckpointNow(): Promise<void> {
    const tmp = `${this.checkpointPath}.tmp`;
    try {
      await writeFile(tmp, encodeCheckpoint(this.state.pods.entries(), this.state.registered()), { mode: 0o600 });
      await rename(tmp, this.checkpointPath);
    } catch (err) {
      this.deps.logger.error('Failed to write checkpoint file', { file: this.checkpointPath, err: String(err) });
    }
  }
}

const podRefOf = (pod: V1Pod) => ({ namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' });
