import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { launch } from '../linux/launch.ts';
import { boundingSet } from './capabilities.ts';
import { protectedPaths } from './masked-paths.ts';
import { envWords } from '../linux/host-env.ts';
import { CONTAINER_INIT_SCRIPT, PAYLOAD_SCRIPT } from '../linux/scripts.ts';
import { CriLogWriter } from '../logs/cri-log-writer.ts';
import { registerContainerStdin } from '../streaming/container-stdin.ts';
import { ptyCommand } from '../streaming/pty.ts';
import type { ContainerRecord, SandboxRecord } from '../state/types.ts';
import { exitCodeOf, isAlive, procStartTime } from '../util/proc.ts';
import { resolveInRoot } from '../util/resolve-in-root.ts';
import { nowNs } from '../util/time.ts';
import { envPathsIn, staticBusybox, waitEnteredRoot } from './container-env.ts';
import type { RuntimeContext } from './context.ts';
import { containerDir, killContainer } from './container-ops.ts';
import { fail, ok, type OpResult } from './result.ts';
import { watchChild, type ExitInfo } from './watch.ts';

const START_ERROR_PREFIX =
  'failed to create containerd task: failed to create shim task: OCI runtime create failed: unable to start container process: ';

export type PidMode = 'CONTAINER' | 'POD' | 'NODE' | 'TARGET';

/** The container's pid namespace: its own, the sandbox's (POD), the host's, or another container's (TARGET). */
export function pidModeOf(rec: ContainerRecord, sb: SandboxRecord): PidMode {
  const m = rec.config.linux?.securityContext?.namespaceOptions?.pid ?? 'POD';
  if (m === 'CONTAINER') return 'CONTAINER';
  if (m === 'TARGET') return 'TARGET';
  if (m === 'NODE') return 'NODE';
  return sb.namespaces.pid ? 'POD' : 'NODE';
}

/** nsenter flags joining the sandbox's namespaces (only those it created). */
export function sandboxJoinFlags(sb: SandboxRecord, pid: boolean): string[] {
  const n = sb.namespaces;
  return [
    ...(n.user ? ['--user', '--preserve-credentials'] : []),
    ...(n.net ? ['--net'] : []), ...(n.ipc ? ['--ipc'] : []), ...(n.uts ? ['--uts'] : []),
    ...(pid ? ['--pid'] : []),
  ];
}

/**
 * TARGET (an ephemeral container's targetContainerName): nsenter joins the pid namespace of the target
 * container's init, which must be running (the kubelet passes a running target's id).
 */
function targetPidFlags(ctx: RuntimeContext, rec: ContainerRecord): OpResult<string[]> {
  const targetId = rec.config.linux?.securityContext?.namespaceOptions?.targetId ?? '';
  const t = targetId ? ctx.store.findContainer(targetId) : undefined;
  if (!t || t.sandboxId !== rec.sandboxId || t.state !== 'CONTAINER_RUNNING' || !t.pid || !isAlive(t.pid, t.pidStart)) {
    return fail('UNKNOWN', `target container "${targetId}" of container "${rec.id}" is not running in its pod`);
  }
  return ok([`--pid=/proc/${t.pid}/ns/pid`]);
}

/**
 * node → [nsenter into the sandbox's namespaces (forks when joining its pid ns)] → unshare --mount →
 * setup sh [→ unshare --pid → waiter sh] → payload sh (the container's init) → [setpriv →] unshare --root →
 * the image's env(1) or the host's static busybox → the command. Every step but the last two runs on the host
 * with the fixed host environment (launch.ts); the pod's data travel as argv words after "--" or in positional
 * arguments of the scripts (working dir, PATH, env words, command), and only the last step applies the env.
 */
function buildArgv(ctx: RuntimeContext, rec: ContainerRecord, sb: SandboxRecord, image: string): OpResult<string[]> {
  const b = ctx.bins;
  const mode = pidModeOf(rec, sb);
  const target = mode === 'TARGET' ? targetPidFlags(ctx, rec) : ok([]);
  if (!target.ok) return target;
  const join_ = [...sandboxJoinFlags(sb, mode === 'POD'), ...target.value];
  const enter = join_.length > 0 ? [b.nsenter, '-t', String(sb.pausePid), ...join_, '--'] : [];
  const unshare = [b.unshare, '--mount', '--'];
  // The working dir as the container sees it: symlinks followed inside the image, ".." never above its root.
  const wd = resolveInRoot(image, rec.workingDir.startsWith('/') ? rec.workingDir : `/${rec.workingDir}`);
  if (!wd.ok) return fail('UNKNOWN', `working directory ${rec.workingDir}: ${wd.reason}`);
  const words = envWords(rec.env);
  if (!words.ok) return fail('UNKNOWN', words.message);
  // env(1) would take it for one more variable
  if (rec.argv[0]!.includes('=')) return fail('UNKNOWN', `exec: "${rec.argv[0]}": a command name with "=" cannot be run`);
  const script = [b.sh, '-c', CONTAINER_INIT_SCRIPT, 'init', wd.path, rec.env['PATH'] ?? '', envPathsIn(image).flatMap((e) => [e.path, e.target]).join(' ')];
  return ok([...enter, ...unshare, ...script, String(words.words.length), ...words.words, ...rec.argv]);
}

/** The setup's NODELET_* settings: runtime paths and numbers, nothing the pod wrote. */
function buildEnv(ctx: RuntimeContext, rec: ContainerRecord, image: string): Record<string, string> {
  const dir = containerDir(ctx, rec.id);
  const asUser = ctx.privileged && rec.uid !== undefined;
  return {
    NODELET_ROOTFS: join(dir, 'rootfs'),
    NODELET_LOWER: image,
    NODELET_DIR: dir,
    NODELET_OVERLAY: '1',
    NODELET_UID: asUser ? String(rec.uid) : '',
    NODELET_GID: asUser ? String(rec.gid ?? rec.uid) : '',
    NODELET_CGROUP_PROCS: ctx.cgroups ? ctx.cgroups.procsFiles(rec.cgroupPath).join(' ') : '',
    NODELET_PAYLOAD: PAYLOAD_SCRIPT,
    NODELET_READONLY: rec.config.linux?.securityContext?.readonlyRootfs ? '1' : '',
    NODELET_UNSHARE: ctx.bins.unshare,
    NODELET_SH: ctx.bins.sh,
    NODELET_BUSYBOX: ctx.bins.busybox ?? '',
    NODELET_STATIC_BB: staticBusybox(ctx.bins.busybox) ?? '',
    NODELET_NSENTER: ctx.bins.nsenter,
    ...capsEnv(ctx, rec, asUser),
    ...groupsEnv(ctx, rec, asUser),
    NODELET_OOM_SCORE_ADJ: rec.config.linux?.resources?.oomScoreAdj ? String(rec.config.linux.resources.oomScoreAdj) : '',
    NODELET_NEWPID: pidModeOf(rec, ctx.store.sandboxes.get(rec.sandboxId)!) === 'CONTAINER' ? '1' : '',
  };
}

/**
 * Capability bounding set for the command. The exec step (`unshare --root`, and `-S` when it switches to a
 * non-root uid) needs sys_chroot and setuid, so those stay even when dropped; the groups and the gid are set
 * before the bounding set (PAYLOAD_SCRIPT), unless the host has no setpriv (then unshare's -G needs setgid).
 */
function capsEnv(ctx: RuntimeContext, rec: ContainerRecord, asUser: boolean): Record<string, string> {
  const sc = rec.config.linux?.securityContext;
  const set = boundingSet(sc);
  if (set === undefined || !ctx.bins.setpriv) return { NODELET_SETPRIV: '', NODELET_CAPS: '', NODELET_NNP: '' };
  const groupsBySetpriv = asUser && supplementaryGroups(ctx, rec) !== '';
  const switchUid = asUser && (rec.uid !== 0 || !groupsBySetpriv);
  const need = ['sys_chroot', ...(switchUid ? ['setuid'] : []), ...(asUser && !groupsBySetpriv ? ['setgid'] : [])]
    .filter((c) => !set.split(',').includes(`+${c}`));
  return {
    NODELET_SETPRIV: ctx.bins.setpriv,
    NODELET_CAPS: [set, ...need.map((c) => `+${c}`)].join(','),
    NODELET_NNP: sc?.noNewPrivs ? '--no-new-privs' : '',
  };
}

/**
 * The supplementary groups (container-user.ts: the gid, the image's groups of the user, the CRI ones) of a
 * container run as a user, set by setpriv before unshare switches the uid (unshare's -G would drop them).
 * Without setpriv on the host they are left out.
 */
function groupsEnv(ctx: RuntimeContext, rec: ContainerRecord, asUser: boolean): Record<string, string> {
  const groups = asUser ? supplementaryGroups(ctx, rec) : '';
  return groups ? { NODELET_SETPRIV: ctx.bins.setpriv!, NODELET_GROUPS: groups } : { NODELET_GROUPS: '' };
}

/** The container's supplementary groups for `setpriv --groups` ("0,1001"), or '' (none, or no setpriv). */
export function supplementaryGroups(ctx: RuntimeContext, rec: ContainerRecord): string {
  const groups = rec.groups ?? (rec.config.linux?.securityContext?.supplementalGroups ?? []).map(Number).filter((g) => Number.isInteger(g) && g >= 0 && g < 2 ** 32);
  if (groups.length === 0) return '';
  if (!ctx.bins.setpriv) {
    ctx.logger.warn('no setpriv on the host: supplementary groups not set', { id: rec.id, groups });
    return '';
  }
  return [...new Set(groups)].join(',');
}

function setupCgroup(ctx: RuntimeContext, rec: ContainerRecord): void {
  if (!ctx.cgroups) return;
  const made = ctx.cgroups.create(rec.cgroupPath);
  if (!made.ok) {
    ctx.logger.warn('cannot create container cgroup', { id: rec.id, err: made.message });
    return;
  }
  const r = rec.config.linux?.resources;
  const failed = [
    ...ctx.cgroups.apply(rec.cgroupPath, { memoryLimitInBytes: r?.memoryLimitInBytes, cpuQuota: r?.cpuQuota, cpuPeriod: r?.cpuPeriod, cpuShares: r?.cpuShares }),
    ...ctx.cgroups.setCpuset(rec.cgroupPath, r?.cpusetCpus, r?.cpusetMems),
  ];
  if (failed.length) ctx.logger.warn('cgroup limits not applied', { id: rec.id, files: failed });
}

export async function startContainer(ctx: RuntimeContext, id: string): Promise<OpResult<void>> {
  const rec = ctx.store.findContainer(id);
  if (!rec) return fail('NOT_FOUND', `an error occurred when try to find container "${id}": not found`);
  if (rec.state !== 'CONTAINER_CREATED') return fail('UNKNOWN', `container "${rec.id}" is in ${rec.state} state`);
  const sb = ctx.store.sandboxes.get(rec.sandboxId);
  if (!sb || sb.state !== 'SANDBOX_READY' || !sb.pausePid || !isAlive(sb.pausePid, sb.pauseStart)) {
    return startFailed(ctx, rec, `sandbox container "${rec.sandboxId}" is not running`);
  }
  const lower = ctx.images.rootfsOf(rec.imageId);
  if (!lower) {
    // Never fall back to another root: an image removed after CreateContainer makes the start fail.
    return startFailed(ctx, rec, `image "${rec.imageId}" of container "${rec.id}" is no longer present`);
  }
  const built = buildArgv(ctx, rec, sb, lower);
  if (!built.ok) return startFailed(ctx, rec, built.message);
  const guarded = protectedPaths(rec.config.linux?.securityContext);
  if (!guarded.ok) return startFailed(ctx, rec, guarded.message);
  const t0 = Date.now();
  setupCgroup(ctx, rec);
  const log = rec.logPath ? new CriLogWriter(rec.logPath) : undefined;
  try {
    log?.open();
  } catch (err) {
    return startFailed(ctx, rec, `failed to create container log: ${String(err)}`);
  }
  // tty: the container runs on a pty (its output is the terminal's); its stdin is a pipe kept open for attach.
  const pty = rec.config.tty ? ptyCommand(built.value) : { argv: built.value, env: {} };
  const stdin = rec.config.stdin || rec.config.tty ? 'pipe' : 'ignore';
  const paths = {
    NODELET_MASKED_PATHS: guarded.masked.join(' '), NODELET_READONLY_PATHS: guarded.readonly.join(' '),
    NODELET_SECCOMP: rec.seccomp && ctx.bins.perl ? rec.seccomp : '', NODELET_PERL: ctx.bins.perl ?? '',
  };
  const r = await launch(pty.argv, { env: { ...buildEnv(ctx, rec, lower), ...paths, ...pty.env }, output: 'pipe', stdin });
  pipeLogs(r.child.stdout, log, 'stdout');
  pipeLogs(r.child.stderr, log, 'stderr');
  r.child.once('close', () => log?.close());
  if (!r.ok) {
    if (r.child.pid) r.child.kill('SIGKILL');
    killContainer(ctx, rec);
    log?.close();
    return startFailed(ctx, rec, r.message);
  }
  if (r.child.stdin && rec.config.stdin) registerContainerStdin(ctx, rec.id, r.child.stdin, rec.config.stdinOnce ?? false);
  // "ok" comes right before the last steps: an exec (postStart hook) must not find the init outside its root.
  if (!(await waitEnteredRoot(r.initPid, join(containerDir(ctx, rec.id), 'rootfs'), 10_000))) {
    ctx.logger.warn('container init did not enter its root in time', { id: rec.id, pid: r.initPid });
  }
  rec.state = 'CONTAINER_RUNNING';
  rec.pid = r.initPid;
  rec.pidStart = procStartTime(r.initPid);
  rec.startedAt = nowNs();
  ctx.store.saveContainer(rec);
  watchChild(ctx.containerProcs, rec.id, r.child, (info) => onContainerExit(ctx, rec.id, info), { log });
  ctx.events.emit({ type: 'CONTAINER_STARTED_EVENT', containerId: rec.id, sandboxId: rec.sandboxId, createdAt: nowNs() });
  ctx.logger.info('container started', { id: rec.id, pid: r.initPid, ms: Date.now() - t0 });
  return ok(undefined);
}

function pipeLogs(stream: Readable | null, log: CriLogWriter | undefined, name: 'stdout' | 'stderr'): void {
  if (!stream) return;
  stream.on('data', (d: Buffer) => log?.write(name, d));
  stream.on('end', () => log?.end(name));
  stream.on('error', () => {});
}

function startFailed(ctx: RuntimeContext, rec: ContainerRecord, message: string): OpResult<void> {
  const now = nowNs();
  Object.assign(rec, { state: 'CONTAINER_EXITED', exitCode: 128, reason: 'StartError', message, finishedAt: now });
  ctx.store.saveContainer(rec);
  if (ctx.cgroups) ctx.cgroups.remove(rec.cgroupPath);
  ctx.events.emit({ type: 'CONTAINER_STOPPED_EVENT', containerId: rec.id, sandboxId: rec.sandboxId, createdAt: now });
  ctx.logger.warn('container start failed', { id: rec.id, err: message });
  return fail('UNKNOWN', START_ERROR_PREFIX + message + ': unknown');
}

/**
 * Record an exit: code, reason (OOMKilled when the memory cgroup killed something), finishedAt. The event goes out
 * before the state file is written (the kubelet builds the pod's status from it; the record in the store is the
 * exited one already): the synchronous write held the event 5–49 ms (load 6–74).
 */
export function onContainerExit(ctx: RuntimeContext, id: string, info: ExitInfo | undefined): void {
  const rec = ctx.store.containers.get(id);
  if (!rec) return;
  // finished_at is when the exit was seen (as containerd's shim stamps exited_at at its wait), not after the
  // cgroup's leftovers are killed and the cgroup removed below.
  const finishedAt = nowNs();
  // After a runtime restart the exit status comes from the file the waiter wrote, when it could.
  const recorded = info ? undefined : readExitFile(ctx, id);
  const code = info ? exitCodeOf(info.code, info.signal) : (recorded ?? 255);
  const oom = ctx.cgroups ? ctx.cgroups.oomKills(rec.cgroupPath) > 0 : false;
  if (ctx.cgroups) {
    ctx.cgroups.killAll(rec.cgroupPath);
    ctx.cgroups.remove(rec.cgroupPath);
  }
  rec.state = 'CONTAINER_EXITED';
  rec.exitCode = code;
  rec.finishedAt = finishedAt;
  const lost = !info && recorded === undefined;
  rec.reason = oom ? 'OOMKilled' : lost ? 'RuntimeRestarted' : code === 0 ? 'Completed' : 'Error';
  rec.message = lost ? 'the container process was gone after a runtime restart; its exit code is unknown' : '';
  ctx.store.saveContainerSoon(rec);
  ctx.events.emit({ type: 'CONTAINER_STOPPED_EVENT', containerId: id, sandboxId: rec.sandboxId, createdAt: nowNs() });
  ctx.logger.info('container exited', { id, exitCode: code, reason: rec.reason });
}

function readExitFile(ctx: RuntimeContext, id: string): number | undefined {
  try {
    const n = Number(readFileSync(join(containerDir(ctx, id), 'exit'), 'utf8').trim());
    return Number.isInteger(n) ? n : undefined;
  } catch {
    return undefined;
  }
}
