/**
 * Starting one container, as the kubelet's startContainer: image → config → CreateContainer →
 * StartContainer, each failure a value with the kubelet's reason (ErrImagePull..., CreateContainerConfigError,
 * CreateContainerError, RunContainerError) and a Warning event.
 */
import { podIPsOf } from '../api/pod-ips.ts';
import type { V1Container, V1Pod, V1Secret } from '@kubernetes/client-node';
import type { ContainerConfig, CriClient, Mount, PodSandboxConfig } from '../cri/types.ts';
import { findContainerStatusByName, type PodStatus } from '../container/types.ts';
import type { ImageManager, StatusImage } from '../images/types.ts';
import { generateContainerConfig } from './container-config.ts';
import { containerLogPathErrors } from './log-path-checks.ts';
import { ephemeralContainerNamed, targetContainerId, useTargetPidNamespace } from './ephemeral-containers.ts';
import type { ImageUser, SecurityContextOptions } from './security-context.ts';
import type { VolumeHost } from '../volume/types.ts';
import type { PodObjectSource } from '../podobjects/types.ts';
import type { NodeAllocatable } from '../volume/downward-api.ts';
import type { EventSink, RuntimeFs } from './types.ts';
import { podContainerDir, terminationMessageMount, type TerminationMessageFs } from './termination-message.ts';
import { applyDeviceOptions, type ContainerDevices } from './device-options.ts';

export interface StartDeps {
  cri: Pick<CriClient, 'createContainer' | 'startContainer'> & Partial<Pick<CriClient, 'imageStatus'>>;
  /** Seccomp profile root and default (the kubelet's `<root-dir>/seccomp`, seccompDefault). */
  security?: SecurityContextOptions;
  images: ImageManager;
  events: EventSink;
  timed: <T>(op: string, fn: () => Promise<T>) => Promise<T>;
  nodeName: string;
  hostIPs: string[];
  /** Creates `<pod log dir>/<container>/` before CreateContainer (the kubelet does; runtimes expect it). */
  fs?: RuntimeFs;
  /** CRI mounts of the container's volumeMounts (hostPath volumes only when absent). */
  volumes?: Pick<VolumeHost, 'containerMounts'>;
  /** ConfigMap / Secret managers for env. */
  objects?: PodObjectSource;
  /** The node's allocatable for env resourceFieldRefs of a container without limits. */
  allocatable?: () => NodeAllocatable;
  /** Termination message files under `<rootDir>/pods/<uid>/containers/<name>/` (none when absent). */
  messages?: { fs: TerminationMessageFs; rootDir: string; onError: (message: string) => void };
  /**
   * Runs the container's postStart hook right after StartContainer (the sync waits for it). On failure the
   * implementation kills the container (FailedPostStartHook) and returns the handler's message.
   */
  postStart?: (pod: V1Pod, c: V1Container, containerId: string, podIp: string) => Promise<{ ok: true } | { ok: false; message: string }>;
  /** The device manager: the container's device plugin allocations (a failure is CreateContainerConfigError). */
  devices?: ContainerDevices;
  /** The kubelet's internal container lifecycle (CPU manager cpuset, AddContainer). */
  lifecycle?: InternalContainerLifecycle;
}

/**
 * internalContainerLifecycle: PreCreateContainer edits the CRI config just before CreateContainer (the CPU
 * manager's cpuset_cpus); PreStartContainer learns the new container's id before StartContainer; PostStopContainer
 * (the topology manager's RemoveContainer) runs before a dead container is removed.
 */
export interface InternalContainerLifecycle {
  preCreateContainer(pod: V1Pod, c: V1Container, config: ContainerConfig): void;
  preStartContainer(pod: V1Pod, c: V1Container, containerId: string): void;
  /** PostStopContainer: the container is about to be removed (kuberuntime removeContainer, before RemoveContainer). */
  postStopContainer?(containerId: string): void;
}

export type StartResult = { ok: true; containerId: string } | { ok: false; reason: string; message: string };

export function errText(err: unknown): string {
  if (err && typeof err === 'object' && 'details' in err && typeof err.details === 'string' && err.details) return err.details;
  return err instanceof Error ? err.message : String(err);
}

/**
 * The kubelet's getImageUser: ImageStatus of the container's image → its uid, else its user name, else root
 * (uid 0). `known`: the status EnsureImageExists just read (not read twice). Without an image service (unit
 * fakes) the image runs as root.
 */
async function imageUser(deps: StartDeps, c: V1Container, known?: StatusImage): Promise<{ ok: true; user: ImageUser } | { ok: false; message: string }> {
  if (!known && !deps.cri.imageStatus) return { ok: true, user: { uid: 0 } };
  try {
    const img = known ?? (await deps.cri.imageStatus!({ image: { image: c.image ?? '' } })).image;
    if (img?.uid) return { ok: true, user: { uid: Number(img.uid.value) } };
    if (img?.username) return { ok: true, user: { username: img.username } };
    return { ok: true, user: { uid: 0 } };
  } catch (err) {
    return { ok: false, message: errText(err) };
  }
}

/**
 * The container's termination-log file, made in the pod's directory (its CRI mount; undefined when the container has
 * no terminationMessagePath or the file could not be made: the error is reported, the container starts without it).
 * Never rejects. Made ahead while a new sandbox starts by messageFilesAhead (`StartOptions.messageFile`).
 */
function messageMountOf(deps: Pick<StartDeps, 'messages'>, pod: V1Pod, c: V1Container): Promise<Mount | undefined> {
  if (!deps.messages) return Promise.resolve(undefined);
  const { fs, rootDir, onError } = deps.messages;
  const dir = podContainerDir(rootDir, pod.metadata?.uid ?? '', c.name);
  if (dir) return terminationMessageMount(fs, dir, c, onError);
  onError(`no termination-log file for container "${c.name}": pod uid or container name is not a plain path segment`);
  return Promise.resolve(undefined);
}

/**
 * The container's termination-log file (its mount; `ahead`: made already) and `<pod log dir>/<container>/`; a failure
 * to make the log dir is returned (the start fails with CreateContainerError), never thrown: the caller may return
 * before awaiting it.
 */
async function containerFiles(deps: StartDeps, pod: V1Pod, c: V1Container, sandboxConfig: PodSandboxConfig, ahead?: Promise<Mount | undefined>): Promise<{ mount?: Mount; logDirError?: unknown }> {
  const logDir = async (): Promise<unknown> => {
    try {
      if (deps.fs && sandboxConfig.logDirectory) await deps.fs.mkdirp(`${sandboxConfig.logDirectory}/${c.name}`);
      return undefined;
    } catch (err) {
      return err ?? new Error('mkdir failed');
    }
  };
  const [mount, logDirError] = await Promise.all([ahead ?? messageMountOf(deps, pod, c), logDir()]);
  return { ...(mount ? { mount } : {}), ...(logDirError !== undefined ? { logDirError } : {}) };
}

/** A termination-log file made ahead (messageFilesAhead): its mount, and whether its start asked CreateContainer. */
export interface AheadMessageFile {
  mount: Promise<Mount | undefined>;
  created: boolean;
}

/** What a start may be given ready-made. */
export interface StartOptions {
  /** The container's termination-log file, made while the sandbox started; the start marks it `created`. */
  messageFile?: AheadMessageFile;
}

/**
 * The termination-log files of the containers a new sandbox's sync starts, made while RunPodSandbox runs — in the
 * thread pool, while the agent waits for the sandbox anyway (made between RunPodSandbox and CreateContainer, the
 * synchronous mkdir + create held the event loop ≈ 1.7 ms a pod in a 30-pod burst, on ext4 behind the runtime's own
 * file work). Only for a container's first start with a safe log path: no back-off can refuse it. `drops` gets what,
 * after the sync, removes each file whose start never asked CreateContainer (a failed sandbox, pull or config): the
 * kubelet makes the file only on the way to CreateContainer, so a pod retrying such a start keeps none.
 */
export function messageFilesAhead(
  deps: Pick<StartDeps, 'messages'>,
  pod: V1Pod,
  starting: ReadonlyArray<V1Container | undefined>,
  status: PodStatus,
  drops: Array<() => void>,
): Map<string, AheadMessageFile> {
  const made = new Map<string, AheadMessageFile>();
  for (const c of starting) {
    if (c?.terminationMessagePath && !findContainerStatusByName(status, c.name) && containerLogPathErrors(pod, c).length === 0) made.set(c.name, { mount: messageMountOf(deps, pod, c), created: false });
  }
  const remove = (m: Mount | undefined) => (m?.hostPath ? deps.messages?.fs.removeMessageFile?.(m.hostPath) : undefined);
  drops.push(() => {
    for (const f of made.values()) if (!f.created) void f.mount.then(remove).catch(() => undefined);
  });
  return made;
}

export async function startContainer(
  deps: StartDeps,
  pod: V1Pod,
  c: V1Container,
  init: boolean,
  sandboxId: string,
  sandboxConfig: PodSandboxConfig,
  status: PodStatus,
  podIps: string[] | Promise<string[]>,
  pullSecrets: readonly V1Secret[] = [],
  opts: StartOptions = {},
): Promise<StartResult> {
  const list = init ? 'initContainers' : ephemeralContainerNamed(pod, c.name) ? 'ephemeralContainers' : 'containers';
  const fieldPath = `spec.${list}{${c.name}}`;
  const warn = (message: string) => deps.events(pod, 'Warning', 'Failed', `Error: ${message}`, fieldPath);
  const img = await deps.images.ensureImageExists(pod, c, pullSecrets);
  if (!img.ok) return img;
  const prev = findContainerStatusByName(status, c.name);
  const restartCount = prev ? prev.restartCount + 1 : 0;
  const target = targetContainerId(pod, c.name, status);
  if (!target.ok) {
    warn(target.message);
    return { ok: false, reason: 'CreateContainerConfigError', message: target.message };
  }
  // The termination-log file (unless made ahead) and the container's log dir are made while the sandbox's IPs are
  // asked and the config is built; both are there before CreateContainer. Only for a container whose log path is
  // safe: otherwise nothing is made and the config's check refuses the container (CreateContainerConfigError,
  // log-path-checks.ts) — a name such as "../x" must not make a directory first.
  const files = containerLogPathErrors(pod, c).length === 0 ? containerFiles(deps, pod, c, sandboxConfig, opts.messageFile?.mount) : Promise.resolve({} as Awaited<ReturnType<typeof containerFiles>>);
  const ips = podIPsOf(pod, await podIps, deps.hostIPs);
  const ctx = {
    podIp: ips[0] ?? '',
    podIps: ips,
    hostIp: deps.hostIPs[0] ?? '',
    hostIps: deps.hostIPs,
    nodeName: deps.nodeName,
    ...(deps.objects ? { objects: deps.objects } : {}),
    ...(deps.allocatable ? { allocatable: deps.allocatable() } : {}),
  };
  const user = await imageUser(deps, c, img.image);
  const cfg = user.ok ? await generateContainerConfig(pod, c, restartCount, img.imageRef, ctx, deps.volumes, user.user, deps.security) : user;
  if (!cfg.ok) {
    warn(cfg.message);
    return { ok: false, reason: 'CreateContainerConfigError', message: cfg.message };
  }
  useTargetPidNamespace(cfg.config, target.id);
  if (deps.devices) {
    const dev = await deps.devices(pod, c);
    if (!dev.ok) {
      warn(dev.message);
      return { ok: false, reason: 'CreateContainerConfigError', message: dev.message };
    }
    applyDeviceOptions(cfg.config, dev.opts);
  }
  for (const w of cfg.warnings ?? []) deps.events(pod, 'Warning', 'InvalidEnvironmentVariableNames', w, fieldPath);
  const { mount, logDirError } = await files;
  if (mount) cfg.config.mounts = [...(cfg.config.mounts ?? []), mount];
  deps.lifecycle?.preCreateContainer(pod, c, cfg.config);
  let containerId: string;
  try {
    if (logDirError !== undefined) throw logDirError;
    if (opts.messageFile) opts.messageFile.created = true; // kept, as the kubelet's is, whatever CreateContainer says
    const r = await deps.timed('create_container', () =>
      deps.cri.createContainer({ podSandboxId: sandboxId, config: cfg.config, sandboxConfig }),
    );
    containerId = r.containerId;
  } catch (err) {
    const message = errText(err);
    warn(message);
    return { ok: false, reason: 'CreateContainerError', message };
  }
  deps.events(pod, 'Normal', 'Created', `Created container: ${c.name}`, fieldPath);
  deps.lifecycle?.preStartContainer(pod, c, containerId);
  try {
    await deps.timed('start_container', () => deps.cri.startContainer({ containerId }));
  } catch (err) {
    const message = errText(err);
    warn(message);
    return { ok: false, reason: 'RunContainerError', message };
  }
  deps.events(pod, 'Normal', 'Started', `Started container ${c.name}`, fieldPath);
  if (c.lifecycle?.postStart && deps.postStart) {
    const hook = await deps.postStart(pod, c, containerId, ips[0] ?? '');
    if (!hook.ok) return { ok: false, reason: 'PostStartHookError', message: hook.message };
  }
  return { ok: true, containerId };
}
