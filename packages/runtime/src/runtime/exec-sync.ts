import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { envWords, hostEnv } from '../linux/host-env.ts';
import { EXEC_ENTER_SCRIPT } from '../linux/scripts.ts';
import { descendantsOf, exitCodeOf, killTree, signal } from '../util/proc.ts';
import type { RuntimeContext } from './context.ts';
import { busyboxDir, busyboxStep, enteredRoot, envPathsIn, firstExecutableIn, lookPathIn, staticBusybox } from './container-env.ts';
import { containerDir } from './container-ops.ts';
import { pidModeOf, sandboxJoinFlags, supplementaryGroups } from './container-start.ts';
import { fail, ok, type OpResult } from './result.ts';

export interface ExecSyncOutput {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

const MAX_OUTPUT = 16 * 1024 * 1024;

export interface ExecCommand {
  rec: NonNullable<ReturnType<RuntimeContext['store']['findContainer']>>;
  argv: string[];
  env: Record<string, string>;
}

const notFound = (id: string, name: string) =>
  `failed to exec in container: failed to start exec "${id}": OCI runtime exec failed: exec failed: unable to start container process: exec: "${name}": executable file not found in $PATH: unknown`;

/**
 * The argv + env that run `cmd` inside a running container's namespaces, root and cgroup (ExecSync, Exec and
 * lifecycle hooks, which the kubelet runs through ExecSync): sh (joins the cgroup) → nsenter → the last step of
 * scripts.ts (the image's env(1) or the host's static busybox) with the container's env as argv words → cmd.
 * The host-side steps get the fixed host environment; cmd and env travel after "--".
 */
export function execCommand(ctx: RuntimeContext, id: string, cmd: string[]): OpResult<ExecCommand> {
  const rec = ctx.store.findContainer(id);
  if (!rec) return fail('NOT_FOUND', `failed to find container "${id}" in store: not found`);
  if (rec.state !== 'CONTAINER_RUNNING' || !rec.pid) return fail('UNKNOWN', `container "${rec.id}" is not running`);
  if (cmd.length === 0) return fail('INVALID_ARGUMENT', 'cmd must not be empty');
  if (!enteredRoot(rec.pid, join(containerDir(ctx, rec.id), 'rootfs'))) return fail('UNKNOWN', `container "${rec.id}" is still starting`);
  const words = envWords(rec.env);
  if (!words.ok) return fail('UNKNOWN', `failed to exec in container: ${words.message}`);
  if (cmd[0]!.includes('=')) return fail('UNKNOWN', `failed to exec in container: exec: "${cmd[0]}": a command name with "=" cannot be run`);
  // The container's root as its init sees it (mounts included); symlinks are followed inside it.
  const root = `/proc/${rec.pid}/root`;
  const found = lookPathIn(root, rec.workingDir, cmd[0]!, rec.env['PATH'] ?? '');
  if (!found) return fail('UNKNOWN', notFound(rec.id, cmd[0]!));
  const envx = firstExecutableIn(root, envPathsIn(root).map((e) => e.path));
  const bbs = envx ? undefined : staticBusybox(ctx.bins.busybox);
  if (!envx && !bbs) return fail('UNKNOWN', 'failed to exec in container: no env(1) in the image and no static busybox on the host');
  // busybox would run its own applet for a bare name: give it the path found in the container
  const last = envx ? [envx, '-i', '--', ...words.words, ...cmd] : [...busyboxStep(bbs!), ...words.words, found, ...cmd.slice(1)];
  const sb = ctx.store.sandboxes.get(rec.sandboxId);
  const mode = sb ? pidModeOf(rec, sb) : 'NODE';
  const nsFlags = sb ? sandboxJoinFlags(sb, mode !== 'NODE') : [];
  // nsenter's -G drops the supplementary groups: with groups, setpriv sets them and the gid first (still root)
  const user = ctx.privileged && rec.uid !== undefined ? { uid: String(rec.uid), gid: String(rec.gid ?? rec.uid), groups: supplementaryGroups(ctx, rec) } : undefined;
  const asUser = !user ? [] : user.groups ? ['-S', user.uid] : ['-S', user.uid, '-G', user.gid];
  const groups = user?.groups ? [ctx.bins.setpriv!, '--groups', user.groups, '--regid', user.gid, '--'] : [];
  const enter = [...groups, ctx.bins.nsenter, '-t', String(rec.pid), ...nsFlags, '--mount', '-r', '-w', ...asUser, '--', ...last];
  const argv = [ctx.bins.sh, '-c', EXEC_ENTER_SCRIPT, 'exec-enter', bbs ? busyboxDir(bbs) : '', ...enter];
  const env = hostEnv(ctx.cgroups ? { NODELET_CGROUP_PROCS: ctx.cgroups.procsFiles(rec.cgroupPath).join(' ') } : {});
  return ok({ rec, argv, env });
}

/** Run `cmd` inside a running container's namespaces, root and cgroup; `timeout` seconds (0 = none). */
export async function execSync(ctx: RuntimeContext, id: string, cmd: string[], timeout: number): Promise<OpResult<ExecSyncOutput>> {
  const built = execCommand(ctx, id, cmd);
  if (!built.ok) return built;
  const { rec, argv, env } = built.value;
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe', 'ignore'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let size = 0;
  const collect = (into: Buffer[]) => (d: Buffer) => {
    if ((size += d.length) <= MAX_OUTPUT) into.push(d);
  };
  child.stdout?.on('data', collect(out));
  child.stderr?.on('data', collect(err));
  let timedOut = false;
  const timer = timeout > 0
    ? setTimeout(() => {
        timedOut = true;
        // The exec'd tree first, so nsenter reaps it (no zombie left in the container); then nsenter.
        if (child.pid) for (const p of descendantsOf(child.pid).reverse()) signal(p, 'SIGKILL');
        setTimeout(() => child.pid && child.exitCode === null && killTree(child.pid, 'SIGKILL'), 1000).unref();
      }, timeout * 1000)
    : undefined;
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  if (exit.error) return fail('UNKNOWN', `failed to exec in container: ${exit.error.message}`);
  if (timedOut) {
    return fail('DEADLINE_EXCEEDED', `failed to exec in container: timeout ${timeout}s exceeded: context deadline exceeded`);
  }
  const stderr = Buffer.concat(err);
  const code = exitCodeOf(exit.code, exit.signal);
  // The command went missing between the look-up and the exec: env(1) / busybox env report it with 127.
  if (code === 127 && /^env: .*No such file or directory$/m.test(stderr.toString())) return fail('UNKNOWN', notFound(rec.id, cmd[0]!));
  ctx.logger.debug('exec finished', { id: rec.id, cmd, exitCode: code });
  return ok({ stdout: Buffer.concat(out), stderr, exitCode: code });
}
