/**
 * State, test controls and internals of FakeRuntime (split out to keep files short); see fake-runtime.ts.
 */
import type { Clock } from '../../util/clock.ts';
import { realClock } from '../../util/clock.ts';
import type * as T from '../proto-types.ts';
import type { CriCallOptions, CriEventsOptions } from '../types.ts';
import { CriError } from '../types.ts';
import { EventHub } from './event-hub.ts';
import { FakeRecorder, notFound } from './fake-base.ts';
import { FakeImageStore } from './fake-images.ts';
import * as S from './fake-state.ts';
import type { FakeContainer, FakeSandbox } from './fake-state.ts';

export interface FakeRuntimeOptions {
  clock?: Clock;
  /** Extra images present at start (the host image is always there). */
  images?: string[];
  /** Pulls of unknown references succeed (default true); refs in `missingImages` always fail NOT_FOUND. */
  pullAnything?: boolean;
}

export interface ExecResult {
  exitCode: number;
  stdout?: string;
  stderr?: string;
}

export class FakeRuntimeCore extends FakeRecorder {
  readonly endpoint = 'fake:///runtime';
  readonly sandboxes = new Map<string, FakeSandbox>();
  readonly containers = new Map<string, FakeContainer>();
  /** The pod CIDR of the last UpdateRuntimeConfig ('' before any). */
  podCidr = '';
  conditions: T.RuntimeCondition__Output[] = [
    { type: 'RuntimeReady', status: true, reason: '', message: '' },
    { type: 'NetworkReady', status: true, reason: '', message: '' },
  ];
  /** What ExecSync returns; default exit 0 with no output. */
  execHandler: (containerId: string, cmd: string[]) => ExecResult = () => ({ exitCode: 0 });
  closed = false;
  protected readonly clock: Clock;
  protected readonly imageStore: FakeImageStore;
  protected readonly events = new EventHub<T.ContainerEventResponse__Output>();
  protected seq = 0;

  constructor(opts: FakeRuntimeOptions = {}) {
    super();
    this.clock = opts.clock ?? realClock;
    this.imageStore = new FakeImageStore(opts.images ?? [], opts.pullAnything ?? true);
  }

  // ---- test controls -------------------------------------------------------------------------------

  addImage(ref: string, size?: number): T.Image__Output {
    return this.imageStore.add(ref, size);
  }

  /** Images by id (the host image included). */
  get images(): Map<string, T.Image__Output> {
    return this.imageStore.byId;
  }

  /** By tag (`:latest` implied), id, or repo digest. */
  findImage(ref: string): T.Image__Output | undefined {
    return this.imageStore.find(ref);
  }

  /** References whose pull fails NOT_FOUND. */
  get missingImages(): Set<string> {
    return this.imageStore.missing;
  }

  /** A running container exits (as if its process ended). Reason defaults as containerd: Completed / Error. */
  exitContainer(id: string, r: { exitCode: number; reason?: string; message?: string }): void {
    const c = this.containers.get(id);
    if (!c) throw new Error(`fake runtime: no container ${id}`);
    if (c.state !== 'CONTAINER_RUNNING') throw new Error(`fake runtime: container ${id} is ${c.state}`);
    this.finish(c, r.exitCode, r.reason ?? (r.exitCode === 0 ? 'Completed' : 'Error'), r.message ?? '');
  }

  setUsage(id: string, u: { cpuCoreNanos?: number; workingSetBytes?: number }): void {
    const c = this.containers.get(id);
    if (!c) throw new Error(`fake runtime: no container ${id}`);
    c.cpuCoreNanos = u.cpuCoreNanos ?? c.cpuCoreNanos;
    c.workingSetBytes = u.workingSetBytes ?? c.workingSetBytes;
  }

  setCondition(type: string, status: boolean, reason = '', message = ''): void {
    this.conditions = [...this.conditions.filter((c) => c.type !== type), { type, status, reason, message }];
  }

  /** Breaks every open getContainerEvents stream with `err`. */
  breakEventStreams(err = new CriError('UNAVAILABLE', 'event stream broken', { op: 'GetContainerEvents' })): void {
    this.events.break(err);
  }

  /** Open event subscribers. */
  get eventSubscribers(): number {
    return this.events.size;
  }


  // ---- runtime info ----------------------------------------------------------------------------------

  async version(req: T.VersionRequest = {}, o?: CriCallOptions): Promise<T.VersionResponse__Output> {
    await this.begin('version', req, o, this.closed);
    return { version: '0.1.0', runtimeName: 'fake', runtimeVersion: '0.0.1', runtimeApiVersion: 'v1' };
  }

  async status(req: T.StatusRequest = {}, o?: CriCallOptions): Promise<T.StatusResponse__Output> {
    await this.begin('status', req, o, this.closed);
    return { status: { conditions: this.conditions.map((c) => ({ ...c })) }, info: {}, runtimeHandlers: [], features: null };
  }

  /** Records the pod CIDR (callsOf('updateRuntimeConfig')); podCidr holds the latest. */
  async updateRuntimeConfig(req: T.UpdateRuntimeConfigRequest, o?: CriCallOptions): Promise<T.UpdateRuntimeConfigResponse__Output> {
    await this.begin('updateRuntimeConfig', req, o, this.closed);
    this.podCidr = req.runtimeConfig?.networkConfig?.podCidr ?? '';
    return {};
  }

  getContainerEvents(o: CriEventsOptions = {}): AsyncIterable<T.ContainerEventResponse__Output> {
    this.calls.push({ method: 'getContainerEvents', request: {} });
    if (this.closed) throw new CriError('CANCELLED', 'CRI GetContainerEvents: fake runtime client is closed');
    return this.events.subscribe(o.signal);
  }


  close(): void {
    this.closed = true;
    this.events.break(new CriError('CANCELLED', 'CRI GetContainerEvents: fake runtime client is closed'));
  }

  // ---- internals -------------------------------------------------------------------------------------

  protected nowNs(): number {
    return S.toNanos(this.clock.now());
  }

  protected containersOf(sandboxId: string): FakeContainer[] {
    return [...this.containers.values()].filter((c) => c.sandboxId === sandboxId);
  }

  protected getContainer(op: string, id: string | undefined): FakeContainer {
    const c = this.containers.get(id ?? '');
    if (!c) throw notFound(op, `container "${id ?? ''}"`);
    return c;
  }

  protected finish(c: FakeContainer, exitCode: number, reason: string, message: string): void {
    c.state = 'CONTAINER_EXITED';
    c.finishedAt = this.nowNs();
    c.exitCode = exitCode;
    c.reason = reason;
    c.message = message;
    this.emit(c.id, 'CONTAINER_STOPPED_EVENT', this.sandboxes.get(c.sandboxId));
  }

  protected dropContainer(c: FakeContainer): void {
    this.containers.delete(c.id);
    this.emit(c.id, 'CONTAINER_DELETED_EVENT', this.sandboxes.get(c.sandboxId));
  }

  protected sandboxStats(sb: FakeSandbox): T.PodSandboxStats__Output {
    const containers = this.containersOf(sb.id).filter((c) => c.state === 'CONTAINER_RUNNING');
    const stats = containers.map((c) => S.toContainerStats(c, this.nowNs()));
    const attrs = S.toPodSandbox(sb);
    return {
      attributes: { id: sb.id, metadata: attrs.metadata, labels: attrs.labels, annotations: attrs.annotations },
      linux: { cpu: null, memory: null, network: null, process: null, containers: stats, io: null },
      windows: null,
    };
  }

  protected emit(id: string, type: T.ContainerEventType__Output, sb: FakeSandbox | undefined): void {
    this.events.publish({
      containerId: id,
      containerEventType: type,
      createdAt: this.nowNs(),
      podSandboxStatus: sb ? S.toSandboxStatus(sb) : null,
      containersStatuses: sb ? this.containersOf(sb.id).map(S.toContainerStatus) : [],
    });
  }
}
