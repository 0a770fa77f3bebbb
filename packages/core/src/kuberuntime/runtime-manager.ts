/**
 * The kubelet's kuberuntime manager: the container Runtime implemented over CRI. syncPod executes what
 * computePodActions decided: kill, (re)create the sandbox, start the next init container or the app
 * containers, with CrashLoopBackOff per (pod, container). What it is built with: runtime-deps.ts.
 */
import { defaultHostIPs } from '../api/pod-ips.ts';
import type { V1Container, V1Pod, V1Secret } from '@kubernetes/client-node';
import type { PodSandboxConfig } from '../cri/types.ts';
import type { Logger } from '../util/logger.ts';
import type { ContainerStatus, KillPodOptions, PodStatus, PodSyncResult, Runtime, RuntimePod, SyncStepResult } from '../container/types.ts';
import type { RuntimeContainerEvent } from '../cri/runtime-event-types.ts';
import { computePodActions } from './pod-actions.ts';
import { CrashLoopBackOff } from './crash-loop-backoff.ts';
import { SandboxCreator } from './sandbox-create.ts';
import { ephemeralContainersToRun } from './ephemeral-containers.ts';
import { generatePodSandboxConfig } from './sandbox-config.ts';
import { killContainer, killPodWithDeps, type KillDeps } from './kill.ts';
import { errText, messageFilesAhead, startContainer, type AheadMessageFile, type StartDeps } from './start-container.ts';
import { heardExitMessage, listRuntimePods, podStatusFromEvent, readPodStatus, runningPodFromStatus } from './runtime-status.ts';
import { pullSecretsForPod } from './pull-secrets.ts';
import type { ContainerToKill, KubeRuntimeConfig } from './types.ts';
import type { KubeRuntimeDeps } from './runtime-deps.ts';
import { isNotFound } from '../cri/types.ts';
import type { HookDeps } from '../lifecycle/hooks/types.ts';
import { runPostStart, runPreStop } from '../lifecycle/hooks/run-hooks.ts';

/** The pod as the kubelet names it in messages (format.Pod): `name_namespace(uid)`. */
export class KubeRuntimeManager implements Runtime {
  private readonly backOff: CrashLoopBackOff;
  private readonly log: Logger;
  private runtimeType: string;
  private typeKnown = false;
  private typeLookup: Promise<void> | undefined;
  private readonly sandboxes: SandboxCreator;

  /** The node's IPs, looked up once (not per container start). */
  private readonly hostIPs: string[];

  constructor(
    private readonly deps: KubeRuntimeDeps,
    private readonly config: KubeRuntimeConfig,
  ) {
    this.backOff = new CrashLoopBackOff(deps.clock, config.crashLoopBackOff, deps.events);
    this.log = deps.logger.child('kuberuntime');
    this.sandboxes = new SandboxCreator(deps, config, this.log);
    this.runtimeType = config.runtimeType ?? 'cri';
    this.hostIPs = config.hostIPs ?? defaultHostIPs();
  }

  get type(): string {
    return this.runtimeType;
  }

  async version(): Promise<{ name: string; version: string; apiVersion: string }> {
    const v = await this.timed('version', () => this.deps.cri.version({ version: '0.1.0' }));
    if (!this.config.runtimeType && v.runtimeName) this.runtimeType = v.runtimeName;
    return { name: v.runtimeName, version: v.runtimeVersion, apiVersion: v.runtimeApiVersion };
  }

  async getPods(all: boolean): Promise<RuntimePod[]> {
    await this.resolveType();
    return this.timed('list_pods', () => listRuntimePods(this.deps.cri, this.runtimeType, all));
  }

  async getPodStatus(uid: string, name: string, namespace: string): Promise<PodStatus> {
    await this.resolveType();
    return this.timed('pod_status', () => readPodStatus(this.deps.cri, this.runtimeType, uid, name, namespace, this.deps.messages));
  }

  async generatePodStatus(pod: NonNullable<RuntimeContainerEvent['pod']>): Promise<PodStatus> {
    await this.resolveType();
    return podStatusFromEvent(pod, this.runtimeType, this.deps.messages);
  }

  /** The termination message of an exit heard before the runtime shows it; undefined: only the runtime's read can tell. */
  heardExitMessage(c: ContainerStatus): Promise<string | undefined> {
    return heardExitMessage(c, this.deps.messages);
  }

  /** Container IDs are `<runtimeName>://<id>`: learn the runtime's name once (CRI Version). */
  private async resolveType(): Promise<void> {
    if (this.config.runtimeType || this.typeKnown) return;
    this.typeLookup ??= this.version()
      .then(() => {
        this.typeKnown = true;
      })
      .finally(() => (this.typeLookup = undefined));
    await this.typeLookup;
  }

  killPod(pod: V1Pod | undefined, running: RuntimePod, opts: KillPodOptions = {}): Promise<PodSyncResult> {
    return killPodWithDeps(this.killDeps(), pod, running, opts);
  }

  async syncPod(pod: V1Pod, status: PodStatus): Promise<PodSyncResult> {
    const ahead: Array<() => void> = [];
    try {
      return await this.syncPodWith(pod, status, ahead);
    } finally {
      for (const drop of ahead) drop();
    }
  }

  /** `ahead`: what drops the image statuses asked ahead that the sync did not use. */
  private async syncPodWith(pod: V1Pod, status: PodStatus, ahead: Array<() => void>): Promise<PodSyncResult> {
    // WaitForAttachAndMount: the pod stays ContainerCreating (FailedMount events) until its volumes are set up.
    const mounted = await this.deps.volumes?.mountPod(pod);
    if (mounted && !mounted.ok) return { steps: [], error: { reason: mounted.reason, message: mounted.message } };
    const pullSecrets = await pullSecretsForPod({ objects: this.deps.objects, events: this.deps.events, log: this.log }, pod);
    const actions = computePodActions(pod, status, this.deps.probeResults);
    const result: PodSyncResult = { steps: [] };
    const fail = (step: SyncStepResult) => {
      result.steps.push(step);
      if (step.error) result.error ??= { reason: step.error, message: step.message ?? '' };
      return !step.error;
    };
    if (actions.createSandbox && actions.sandboxId) {
      this.deps.events(pod, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
    }
    if (actions.killPod) {
      const r = await this.killPod(pod, runningPodFromStatus(status));
      result.steps.push(...r.steps);
      if (r.error) return { ...result, error: r.error };
    } else {
      for (const k of actions.containersToKill) {
        const step = k.remove ? await this.removeNotStarted(k) : await killContainer(this.killDeps(), pod, k.id, k.name, k.message, undefined, k.gracePeriodS);
        if (!fail(step)) return result;
      }
    }
    let sandboxId = actions.sandboxId;
    let messageFiles = new Map<string, AheadMessageFile>();
    let podIps: string[] | Promise<string[]> = status.ips;
    if (actions.createSandbox) {
      // The images of the containers this sync starts are inspected while the sandbox starts (the kubelet asks
      // after it): an ImageStatus round trip off the start; a pull still waits for the sandbox. Asked after
      // RunPodSandbox, which the runtime then serves first.
      const starting = [...actions.initContainersToStart.map((i) => pod.spec?.initContainers?.[i]), ...actions.containersToStart.map((i) => pod.spec?.containers[i])];
      const created = await this.sandboxes.create(pod, actions.attempt, () => {
        const drop = this.deps.images.inspectAhead?.(pod, starting.filter((c): c is V1Container => c !== undefined));
        if (drop) ahead.push(drop);
        messageFiles = messageFilesAhead(this.startDeps(), pod, starting, status, ahead);
      });
      if (!fail(created.step)) return result;
      sandboxId = created.id;
      podIps = created.ips;
    }
    if (!sandboxId) return result;
    const sandboxConfig = generatePodSandboxConfig(pod, actions.attempt, this.config);
    const start = async (c: V1Container, init: boolean) =>
      fail(await this.startOne(pod, c, init, sandboxId, sandboxConfig, status, podIps, pullSecrets, messageFiles.get(c.name)));
    // Ephemeral containers before init containers (SyncPod step 6), each started once.
    for (const c of ephemeralContainersToRun(pod, actions)) await start(c, false);
    // Init containers in order; a sidecar that cannot start (e.g. in back-off) does not hold back the rest.
    for (const idx of actions.initContainersToStart) {
      const c = pod.spec?.initContainers?.[idx];
      if (c && !(await start(c, true)) && c.restartPolicy !== 'Always') return result;
    }
    for (const idx of actions.containersToStart) {
      const c = pod.spec?.containers[idx];
      if (c) await start(c, false);
    }
    return result;
  }

  /** Ms until the container may be restarted (0 = not in back-off); lets the kubelet schedule a resync. */
  backOffRemaining(pod: V1Pod, c: V1Container, status: PodStatus): number {
    return this.backOff.remaining(pod, c, status);
  }

  private async startOne(
    pod: V1Pod,
    c: V1Container,
    init: boolean,
    sandboxId: string,
    sandboxConfig: PodSandboxConfig,
    status: PodStatus,
    podIps: string[] | Promise<string[]>,
    pullSecrets: V1Secret[],
    messageFile?: AheadMessageFile,
  ): Promise<SyncStepResult> {
    const step: SyncStepResult = { action: init ? 'InitContainer' : 'StartContainer', target: c.name };
    const backOff = this.backOff.check(pod, c, status, init);
    if (backOff) return { ...step, error: 'CrashLoopBackOff', message: backOff };
    if (init) await this.pruneInitContainersBeforeStart(c.name, status);
    const r = await startContainer(this.startDeps(), pod, c, init, sandboxId, sandboxConfig, status, podIps, pullSecrets, messageFile ? { messageFile } : {});
    if (!r.ok) return { ...step, error: r.reason, message: r.message };
    return step;
  }

  /** A container created but never started, removed before another attempt (refused while its start is in flight). */
  private async removeNotStarted(k: ContainerToKill): Promise<SyncStepResult> {
    const step: SyncStepResult = { action: 'KillContainer', target: k.name };
    this.log.info(k.message, { containerId: k.id.id });
    try {
      this.deps.lifecycle?.postStopContainer?.(k.id.id);
      await this.timed('remove_container', () => this.deps.cri.removeContainer({ containerId: k.id.id }));
      return step;
    } catch (err) {
      if (isNotFound(err)) return step;
      return { ...step, error: 'KillContainerError', message: `failed to remove container ${k.name} before its restart: ${errText(err)}` };
    }
  }

  /**
   * pruneInitContainersBeforeStart: an init container keeps only its newest dead instance. Dead instances of
   * app containers are left to container GC (container-gc.ts, --maximum-dead-containers-per-container).
   */
  private async pruneInitContainersBeforeStart(name: string, status: PodStatus): Promise<void> {
    const dead = status.containerStatuses.filter((s) => s.name === name && s.state === 'exited');
    for (const old of dead.slice(1)) {
      try {
        this.deps.lifecycle?.postStopContainer?.(old.id.id);
        await this.timed('remove_container', () => this.deps.cri.removeContainer({ containerId: old.id.id }));
      } catch (err) {
        this.log.debug('failed to remove dead container', { id: old.id.id, err: errText(err) });
      }
    }
  }

  /** Hook for per-operation instrumentation; CRI calls are timed by instrumentCri (see kubelet.ts). */
  private timed<T>(_op: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  private killDeps(): KillDeps {
    const hooks = this.deps.hooks;
    return {
      cri: this.deps.cri,
      events: this.deps.events,
      timed: (op, fn) => this.timed(op, fn),
      clock: this.deps.clock,
      ...(hooks ? { preStop: async (pod: V1Pod, c: V1Container, id: string, grace: number) => (await runPreStop(hooks, pod, c, id, grace)).stopTimeoutS } : {}),
    };
  }

  private startDeps(): StartDeps {
    const hooks = this.deps.hooks;
    return {
      cri: this.deps.cri,
      images: this.deps.images,
      events: this.deps.events,
      timed: (op, fn) => this.timed(op, fn),
      nodeName: this.config.nodeName,
      hostIPs: this.hostIPs,
      fs: this.deps.fs,
      ...(this.config.rootDir ? { security: { seccompRoot: `${this.config.rootDir.replace(/\/$/, '')}/seccomp` } } : {}),
      ...(this.deps.volumes ? { volumes: this.deps.volumes } : {}),
      ...(this.deps.objects ? { objects: this.deps.objects } : {}),
      ...(this.deps.allocatable ? { allocatable: this.deps.allocatable } : {}),
      ...(this.deps.devices ? { devices: this.deps.devices } : {}),
      ...(this.deps.lifecycle ? { lifecycle: this.deps.lifecycle } : {}),
      ...(this.deps.messages && this.config.rootDir ? { messages: { fs: this.deps.messages, rootDir: this.config.rootDir, onError: (message: string) => this.log.error(message) } } : {}),
      ...(hooks ? { postStart: (pod: V1Pod, c: V1Container, id: string, ip: string) => this.postStart(hooks, pod, c, id, ip) } : {}),
    };
  }

  /** postStart; on failure the container is killed (reason FailedPostStartHook) as the kubelet does. */
  private async postStart(hooks: HookDeps, pod: V1Pod, c: V1Container, id: string, ip: string): Promise<{ ok: true } | { ok: false; message: string }> {
    const r = await runPostStart(ip ? { ...hooks, podIP: () => ip } : hooks, pod, c, id);
    if (r.ok) return r;
    const killed = await killContainer(this.killDeps(), pod, { type: this.runtimeType, id }, c.name, `FailedPostStartHook`);
    if (killed.error) this.log.warn('failed to kill container after its postStart hook failed', { container: c.name, err: killed.message });
    return { ok: false, message: r.message };
  }
}
