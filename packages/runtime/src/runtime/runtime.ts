import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerConfig__Output } from '../../../../proto/gen/runtime/v1/ContainerConfig.ts';
import type { ContainerFilter__Output } from '../../../../proto/gen/runtime/v1/ContainerFilter.ts';
import type { LinuxContainerResources__Output } from '../../../../proto/gen/runtime/v1/LinuxContainerResources.ts';
import type { PodSandboxConfig__Output } from '../../../../proto/gen/runtime/v1/PodSandboxConfig.ts';
import type { PodSandboxFilter__Output } from '../../../../proto/gen/runtime/v1/PodSandboxFilter.ts';
import type { ImageStoreApi } from '../images/types.ts';
import { Cgroups } from '../linux/cgroups.ts';
import { StateStore } from '../state/store.ts';
import type { HostBinaries } from '../util/bins.ts';
import type { Logger } from '../util/logger.ts';
import type { RuntimeContext } from './context.ts';
import { createContainer, removeContainer, stopContainer, whileStarting } from './container-ops.ts';
import { startContainer } from './container-start.ts';
import { EventHub } from './events.ts';
import { execSync, type ExecSyncOutput } from './exec-sync.ts';
import { recoverState, stopEverything } from './lifecycle.ts';
import { listContainers, listSandboxes } from './queries.ts';
import { fail, ok, type OpResult } from './result.ts';
import { removeSandbox, runSandbox, stopSandbox } from './sandbox-ops.ts';
import { SandboxFailureLog } from './sandbox-failures.ts';
import { StatsSampler } from './stats.ts';
import { PodNetwork } from '../network/pod-network.ts';

export interface RuntimeDeps {
  images: ImageStoreApi;
  logger: Logger;
  bins: HostBinaries;
  /** Override cgroup detection (tests); undefined = detect. */
  cgroups?: Cgroups | null;
  /** CNI plugin dir for isolated sandboxes; undefined = detect, null = loopback only. */
  cniBinDir?: string | null;
}

export interface RuntimeConfig {
  rootDir: string;
  /** Grace between SIGTERM and SIGKILL when the runtime shuts down. */
  shutdownGraceMs?: number;
}

/** The embedded runtime's operations, independent of gRPC. */
export class Runtime {
  readonly ctx: RuntimeContext;
  readonly stats: StatsSampler;
  private readonly shutdownHooks: Array<() => void> = [];
  private stopped = false;

  constructor(deps: RuntimeDeps, private readonly config: RuntimeConfig) {
    const privileged = process.getuid?.() === 0;
    const logger = deps.logger;
    const store = new StateStore(join(config.rootDir, 'state'), logger);
    const network = new PodNetwork({
      rootDir: config.rootDir,
      logger: logger.child('network'),
      privileged,
      ...(deps.cniBinDir !== undefined ? { binDir: deps.cniBinDir } : {}),
      attached: () => [...store.sandboxes.values()].filter((s) => s.cni).length,
    });
    this.ctx = {
      rootDir: config.rootDir,
      store,
      images: deps.images,
      cgroups: deps.cgroups === null ? undefined : deps.cgroups,
      bins: deps.bins,
      logger,
      events: new EventHub(),
      privileged,
      sandboxProcs: new Map(),
      containerProcs: new Map(),
      starting: new Map(),
      network,
      sandboxFailures: new SandboxFailureLog(logger),
    };
    this.stats = new StatsSampler(this.ctx);
  }

  /** Detect cgroups, load persisted records and reconcile them with the live processes. */
  init(detectCgroups: boolean): void {
    mkdirSync(join(this.config.rootDir, 'containers'), { recursive: true });
    if (detectCgroups && !this.ctx.cgroups) this.ctx.cgroups = Cgroups.detect();
    this.ctx.logger.info('cgroups', { managed: !!this.ctx.cgroups, layout: this.ctx.cgroups?.layout ?? null });
    const r = recoverState(this.ctx);
    this.ctx.logger.info('state recovered', r);
  }

  runSandbox = (config: PodSandboxConfig__Output, handler: string) => runSandbox(this.ctx, config, handler);
  stopSandbox = (id: string) => stopSandbox(this.ctx, id);
  removeSandbox = (id: string) => removeSandbox(this.ctx, id);
  listSandboxes = (f: PodSandboxFilter__Output | null | undefined) => listSandboxes(this.ctx, f);
  createContainer = (sandboxId: string, config: ContainerConfig__Output) => createContainer(this.ctx, sandboxId, config);
  startContainer = (id: string) => whileStarting(this.ctx, id, () => startContainer(this.ctx, id));
  stopContainer = (id: string, timeout: number) => stopContainer(this.ctx, id, timeout);
  removeContainer = async (id: string) => {
    this.stats.forget(id);
    return removeContainer(this.ctx, id);
  };
  listContainers = (f: Parameters<typeof listContainers>[1]) => listContainers(this.ctx, f);
  execSync = (id: string, cmd: string[], timeout: number): Promise<OpResult<ExecSyncOutput>> => execSync(this.ctx, id, cmd, timeout);

  updateResources(id: string, r: LinuxContainerResources__Output | null): OpResult<void> {
    const c = this.ctx.store.findContainer(id);
    if (!c) return fail('NOT_FOUND', `failed to find container "${id}": not found`);
    if (r) {
      // As containerd: fields left unset (0 / '') keep their value (the CPU manager sends cpuset_cpus alone).
      const set = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null && v !== undefined && v !== '' && v !== 0 && !(Array.isArray(v) && v.length === 0)));
      const resources = { ...(c.config.linux?.resources ?? r), ...set } as typeof r;
      c.config.linux = { ...(c.config.linux ?? ({} as NonNullable<ContainerConfig__Output['linux']>)), resources };
      this.ctx.store.saveContainer(c);
      if (this.ctx.cgroups && c.state === 'CONTAINER_RUNNING') {
        this.ctx.cgroups.apply(c.cgroupPath, { memoryLimitInBytes: r.memoryLimitInBytes, cpuQuota: r.cpuQuota, cpuPeriod: r.cpuPeriod, cpuShares: r.cpuShares });
        const failed = this.ctx.cgroups.setCpuset(c.cgroupPath, r.cpusetCpus, r.cpusetMems, true);
        if (failed.length) return fail('UNKNOWN', `failed to update container "${id}" resources: cannot write ${failed.join(', ')}`);
      }
    }
    return ok(undefined);
  }

  reopenLog(id: string): OpResult<void> {
    const c = this.ctx.store.findContainer(id);
    if (!c) return fail('NOT_FOUND', `failed to find container "${id}": not found`);
    if (c.state !== 'CONTAINER_RUNNING') return fail('UNKNOWN', `container "${c.id}" is not running`);
    this.ctx.containerProcs.get(c.id)?.log?.reopen();
    return ok(undefined);
  }

  /** Run `fn` when the runtime shuts down; returns a function that unregisters it. */
  onShutdown(fn: () => void): () => void {
    this.shutdownHooks.push(fn);
    return () => {
      const i = this.shutdownHooks.indexOf(fn);
      if (i >= 0) this.shutdownHooks.splice(i, 1);
    };
  }

  /** Stop every container and sandbox (SIGTERM, SIGKILL after the grace). Idempotent. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const fn of this.shutdownHooks.splice(0)) fn();
    await stopEverything(this.ctx, this.config.shutdownGraceMs ?? 2000);
  }
}

export type { ContainerFilter__Output };
