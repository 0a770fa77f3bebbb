import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ContainerConfig__Output } from '../../../../proto/gen/runtime/v1/ContainerConfig.ts';
import type { ContainerRecord } from '../state/types.ts';
import { newId } from '../util/ids.ts';
import { resolveInRoot } from '../util/resolve-in-root.ts';
import { killTree, signal } from '../util/proc.ts';
import { nowNs } from '../util/time.ts';
import type { RuntimeContext } from './context.ts';
import { resolveProcessSpec } from './container-spec.ts';
import { seccompFilter } from './seccomp/profile.ts';
import { ownUserNamespace, userNamespaceIdError } from './handlers.ts';
import { fail, ok, type OpResult } from './result.ts';
import { waitExited } from './watch.ts';

export function containerDir(ctx: RuntimeContext, id: string): string {
  return join(ctx.rootDir, 'containers', id);
}

export function createContainer(ctx: RuntimeContext, sandboxId: string, config: ContainerConfig__Output): OpResult<string> {
  const sb = ctx.store.findSandbox(sandboxId);
  if (!sb) return fail('NOT_FOUND', `failed to find sandbox id "${sandboxId}": not found`);
  if (sb.state !== 'SANDBOX_READY') return fail('UNKNOWN', `sandbox "${sb.id}" is not running`);
  const name = config.metadata?.name ?? '';
  const attempt = config.metadata?.attempt ?? 0;
  const clash = ctx.store.containersOf(sb.id).find((c) => c.config.metadata?.name === name && (c.config.metadata?.attempt ?? 0) === attempt);
  if (clash) {
    return fail('UNKNOWN', `failed to reserve container name "${name}_${sb.config.metadata?.name}_${attempt}": name is reserved for "${clash.id}"`);
  }
  const ref = config.image?.image ?? '';
  const image = ctx.images.status(ref);
  if (!image) return fail('NOT_FOUND', `failed to get image "${ref}": not found`);
  // kubelet passes the pulled image id; statuses show the name the user asked for (containerd does too).
  const shownImage = config.image?.userSpecifiedImage || (ref.startsWith('sha256:') ? image.repoTags[0] : undefined) || ref;
  const rootfs = ctx.images.rootfsOf(image.id);
  const imageConfig = ctx.images.config(image.id);
  if (!rootfs || !imageConfig) return fail('NOT_FOUND', `image "${ref}" has no unpacked root filesystem`);
  const spec = resolveProcessSpec(config, imageConfig, rootfs);
  if (!spec.ok) return fail('UNKNOWN', `failed to generate container spec: ${spec.message}`);
  if (ownUserNamespace(sb.runtimeHandler, ctx.privileged)) {
    // The pod's root is the only id there: no user switch, no setgroups (denied in that namespace).
    const idError = userNamespaceIdError(sb.runtimeHandler, spec.spec.uid, spec.spec.gid, config.linux?.securityContext?.supplementalGroups ?? []);
    if (idError) return fail('INVALID_ARGUMENT', `failed to generate container spec: ${idError}`);
    delete spec.spec.uid;
    delete spec.spec.gid;
    delete spec.spec.groups;
  }
  const seccomp = seccompFilter(config.linux?.securityContext, !!ctx.bins.perl);
  if (!seccomp.ok) return fail('UNKNOWN', `failed to generate container spec: ${seccomp.message}`);
  spec.spec.env['HOSTNAME'] ??= sb.namespaces.uts ? sb.config.hostname : hostname();
  const id = newId();
  const dir = containerDir(ctx, id);
  for (const d of ['rootfs', 'upper', 'work']) mkdirSync(join(dir, d), { recursive: true });
  const sbDir = join(ctx.rootDir, 'sandboxes', sb.id);
  const own = new Set(config.mounts.map((m) => m.containerPath));
  const wanted = [
    ...['hostname', 'resolv.conf'].filter((f) => !own.has(`/etc/${f}`)).map((f) => ({ mode: 'ro', src: join(sbDir, f), dst: `/etc/${f}` })),
    ...config.mounts
      .filter((m) => m.containerPath && m.hostPath)
      .map((m) => ({ mode: m.readonly ? 'ro' : 'rw', src: m.hostPath, dst: m.containerPath })),
    // CRI devices (device plugins' DeviceSpecs): the host's device node bound at the container path, read-only
    // without "w" in the permissions; this runtime keeps no device cgroup, so the node itself is the access.
    ...(config.devices ?? [])
      .filter((d) => d.containerPath && d.hostPath)
      .map((d) => ({ mode: (d.permissions || 'rwm').includes('w') ? 'rw' : 'ro', src: d.hostPath, dst: d.containerPath })),
  ];
  // Mount points resolved inside the image's root: the setup script must never follow an image symlink out
  // of the container (an image's /var/run -> /run would otherwise create the mount point on the host).
  const mounts: string[] = [];
  for (const m of wanted) {
    // One mount per line of tab-separated fields (linux/scripts.ts): a tab or newline in a path would forge
    // another mount; a path not starting with "/" could be an option of mount.
    const bad = [m.src, m.dst].find((p) => !p.startsWith('/') || /[\t\n\0]/.test(p));
    if (bad !== undefined) {
      rmSync(dir, { recursive: true, force: true });
      return fail('INVALID_ARGUMENT', `failed to generate container spec: mount ${JSON.stringify(m.dst)}: path ${JSON.stringify(bad)} must be absolute, without tabs or newlines`);
    }
    const dst = resolveInRoot(rootfs, m.dst);
    if (!dst.ok) return fail('UNKNOWN', `failed to generate container spec: mount ${m.dst}: ${dst.reason}`);
    mounts.push(`${m.mode}\t${m.src}\t${dst.path}`);
  }
  writeFileSync(join(dir, 'mounts'), mounts.join('\n') + (mounts.length ? '\n' : ''));
  const logDir = sb.config.logDirectory;
  const logPath = !config.logPath ? '' : isAbsolute(config.logPath) ? config.logPath : logDir ? join(logDir, config.logPath) : '';
  const rec: ContainerRecord = {
    id, sandboxId: sb.id, config, image: shownImage, imageId: image.id, state: 'CONTAINER_CREATED',
    createdAt: nowNs(), startedAt: 0, finishedAt: 0, exitCode: 0, reason: '', message: '',
    logPath, cgroupPath: `${sb.cgroupParent}/${id}`, ...spec.spec, ...(seccomp.filter ? { seccomp: seccomp.filter.toString('hex') } : {}),
  };
  ctx.images.touch(image.id);
  ctx.store.saveContainer(rec);
  ctx.events.emit({ type: 'CONTAINER_CREATED_EVENT', containerId: id, sandboxId: sb.id, createdAt: nowNs() });
  ctx.logger.info('container created', { id, sandboxId: sb.id, name, image: ref, argv: spec.spec.argv });
  return ok(id);
}

/**
 * Run `start` as the container's StartContainer, marked "starting" until it settles (containerd's
 * setContainerStarting): a second start meanwhile is refused with containerd's error, a remove too
 * (removeContainer), a stop waits (stopContainer). Unknown ids and other states are `start`'s to answer.
 */
export async function whileStarting(ctx: RuntimeContext, id: string, start: () => Promise<OpResult<void>>): Promise<OpResult<void>> {
  const rec = ctx.store.findContainer(id);
  if (!rec || rec.state !== 'CONTAINER_CREATED') return start();
  if (ctx.starting.has(rec.id)) {
    return fail('UNKNOWN', `failed to set starting state for container "${rec.id}": container is already in starting state`);
  }
  let settled!: () => void;
  ctx.starting.set(rec.id, new Promise<void>((r) => (settled = r)));
  try {
    return await start();
  } finally {
    ctx.starting.delete(rec.id);
    settled();
  }
}

/**
 * Stop: the stop signal, then SIGKILL after `timeout` seconds (0 = SIGKILL at once). A start in flight is
 * waited for first (containerd answers ok at once and the container then runs: a stopped pod would keep it).
 */
export async function stopContainer(ctx: RuntimeContext, id: string, timeout: number): Promise<OpResult<void>> {
  const found = ctx.store.findContainer(id);
  if (!found) return fail('NOT_FOUND', `an error occurred when try to find container "${id}": not found`);
  const starting = ctx.starting.get(found.id);
  if (starting) {
    ctx.logger.info('stop waits for the start in flight', { id: found.id });
    await starting;
  }
  const rec = ctx.store.containers.get(found.id);
  if (!rec || rec.state !== 'CONTAINER_RUNNING' || !rec.pid) return ok(undefined);
  const t0 = Date.now();
  if (timeout > 0) {
    signal(rec.pid, (/^\d+$/.test(rec.stopSignal) ? Number(rec.stopSignal) : rec.stopSignal) as NodeJS.Signals);
    if (await waitExited(ctx.containerProcs, rec.id, timeout * 1000)) {
      ctx.logger.info('container stopped', { id: rec.id, signal: rec.stopSignal, ms: Date.now() - t0 });
      return ok(undefined);
    }
  }
  killContainer(ctx, rec);
  const gone = await waitExited(ctx.containerProcs, rec.id, 10_000);
  ctx.logger.info('container killed', { id: rec.id, ms: Date.now() - t0, gone });
  return gone ? ok(undefined) : fail('UNKNOWN', `failed to kill container "${rec.id}": process did not exit`);
}

/** SIGKILL the container's init, its process tree and (where managed) everything in its cgroup. */
export function killContainer(ctx: RuntimeContext, rec: ContainerRecord): void {
  // Never the waiter (our child): it must live to reap the container's init and report its status.
  if (rec.pid) killTree(rec.pid, 'SIGKILL');
  if (ctx.cgroups) ctx.cgroups.killAll(rec.cgroupPath);
}

export async function removeContainer(ctx: RuntimeContext, id: string): Promise<OpResult<void>> {
  const rec = ctx.store.findContainer(id);
  if (!rec) return ok(undefined);
  // As containerd (setContainerRemoving): the process being launched would outlive its record.
  if (ctx.starting.has(rec.id)) {
    return fail('UNKNOWN', `failed to set removing state for container "${rec.id}": container is in starting state, can't be removed`);
  }
  if (rec.state === 'CONTAINER_RUNNING') {
    const stopped = await stopContainer(ctx, rec.id, 0);
    if (!stopped.ok) return stopped;
  }
  if (ctx.cgroups) ctx.cgroups.remove(rec.cgroupPath);
  rmSync(containerDir(ctx, rec.id), { recursive: true, force: true });
  // Subscribers read the record synchronously, so announce before forgetting it.
  ctx.events.emit({ type: 'CONTAINER_DELETED_EVENT', containerId: rec.id, sandboxId: rec.sandboxId, createdAt: nowNs() });
  ctx.store.deleteContainer(rec.id);
  ctx.logger.info('container removed', { id: rec.id });
  return ok(undefined);
}
