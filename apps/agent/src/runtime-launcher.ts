/**
 * Finds the container runtime. With --container-runtime-endpoint the agent only probes it (an absent runtime is
 * logged; the kubelet keeps retrying and healthz reports it). Without, it uses the embedded runtime at
 * unix://<root-dir>/runtime/nodelet.sock and, if nothing answers there, spawns it detached (pid file, log file)
 * and waits for its socket. The embedded runtime outlives the agent; while the agent runs, runtime-supervisor.ts
 * restarts it when it dies.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Clock, type Logger, pidAlive as alive } from '@nodelet/core/util';
import { daemonEnv, daemonNodeArgs } from './daemon-env.ts';

/**
 * True when this code runs as `npm run build`'s output (dist/agent/*.js, plain node) rather than from its sources
 * through tsx: then the embedded runtime is started from dist/runtime/main.js with plain node as well.
 */
export const COMPILED = import.meta.url.endsWith('.js');
export const REPO_ROOT = fileURLToPath(new URL(COMPILED ? '../../' : '../../../', import.meta.url));
// Compiled: the runtime bundle beside this one (<out>/agent → <out>/runtime), so a build elsewhere than dist/ runs its own.
export const RUNTIME_MAIN = COMPILED ? fileURLToPath(new URL('../runtime/main.js', import.meta.url)) : join(REPO_ROOT, 'packages', 'runtime', 'src', 'main.ts');

export interface RuntimePaths {
  dir: string;
  endpoint: string;
  socket: string;
  pidFile: string;
  logFile: string;
}

export function embeddedRuntimePaths(rootDir: string): RuntimePaths {
  const dir = join(rootDir, 'runtime');
  const socket = join(dir, 'nodelet.sock');
  return { dir, socket, endpoint: `unix://${socket}`, pidFile: join(dir, 'runtime.pid'), logFile: join(dir, 'runtime.log') };
}

export type RuntimeLaunch =
  | { ok: true; endpoint: string; embedded: boolean; spawnedPid?: number }
  | { ok: false; endpoint: string; reason: 'RuntimeUnavailable' | 'RuntimeSpawnFailed'; message: string };

export interface LauncherDeps {
  logger: Logger;
  clock: Clock;
  /** Overridable for tests: the command that starts the embedded runtime. */
  command?: (paths: RuntimePaths) => { file: string; args: string[] };
  startTimeoutMs?: number;
}

/** True when something accepts connections on the unix socket of `endpoint`. */
export function probeEndpoint(endpoint: string, timeoutMs = 1000): Promise<boolean> {
  const path = endpoint.replace(/^unix:\/\//, '');
  return new Promise((resolve) => {
    const sock = connect(path);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      sock.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

export async function ensureRuntime(rootDir: string, endpoint: string | undefined, deps: LauncherDeps): Promise<RuntimeLaunch> {
  const log = deps.logger;
  if (endpoint !== undefined) {
    if (await probeEndpoint(endpoint)) {
      log.info('runtime ready', { endpoint });
      return { ok: true, endpoint, embedded: false };
    }
    log.warn('container runtime is not answering; will keep retrying', { endpoint });
    return { ok: false, endpoint, reason: 'RuntimeUnavailable', message: `nothing answers at ${endpoint}` };
  }
  const paths = embeddedRuntimePaths(rootDir);
  if (await probeEndpoint(paths.endpoint)) {
    log.info('runtime ready (embedded runtime already running)', { endpoint: paths.endpoint, pid: readPid(paths.pidFile) });
    return { ok: true, endpoint: paths.endpoint, embedded: true };
  }
  const existing = readPid(paths.pidFile);
  // Not a pid that something else reuses now (the runtime died while no agent ran): that one is never ready.
  if (existing !== undefined && isRuntimeProcess(existing, paths.socket)) {
    log.info('embedded runtime process exists but is not answering yet; waiting', { pid: existing });
    if (await waitForSocket(paths, deps, () => isRuntimeProcess(existing, paths.socket))) {
      log.info('runtime ready', { endpoint: paths.endpoint, pid: existing });
      return { ok: true, endpoint: paths.endpoint, embedded: true };
    }
  }
  return spawnRuntime(paths, deps);
}

/** How the embedded runtime is started: node with the daemons' V8 flags (daemon-env.ts), its main, its socket and root. */
export function runtimeCommand(paths: RuntimePaths): { file: string; args: string[] } {
  return { file: process.execPath, args: [...daemonNodeArgs(), ...(COMPILED ? [] : ['--import', 'tsx']), RUNTIME_MAIN, '--listen', paths.endpoint, '--root', paths.dir] };
}

/** Starts the embedded runtime detached (pid file, log file) and waits for its socket. */
export async function spawnRuntime(paths: RuntimePaths, deps: LauncherDeps): Promise<RuntimeLaunch> {
  const log = deps.logger;
  mkdirSync(paths.dir, { recursive: true });
  if (existsSync(paths.socket)) rmSync(paths.socket, { force: true });
  const cmd = deps.command?.(paths) ?? runtimeCommand(paths);
  log.info('starting the embedded runtime', { cmd: [cmd.file, ...cmd.args].join(' '), log: paths.logFile });
  const fd = openSync(paths.logFile, 'a');
  let exited: string | undefined;
  try {
    const child = spawn(cmd.file, cmd.args, { detached: true, stdio: ['ignore', fd, fd], cwd: REPO_ROOT, env: daemonEnv() });
    child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
    child.once('error', (err) => (exited = err.message));
    child.unref();
    if (child.pid === undefined) {
      return { ok: false, endpoint: paths.endpoint, reason: 'RuntimeSpawnFailed', message: 'spawn returned no pid' };
    }
    writeFileSync(paths.pidFile, `${child.pid}\n`);
    if (await waitForSocket(paths, deps, () => exited === undefined)) {
      log.info('runtime ready', { endpoint: paths.endpoint, pid: child.pid });
      return { ok: true, endpoint: paths.endpoint, embedded: true, spawnedPid: child.pid };
    }
    const message = `the embedded runtime ${exited ?? 'did not open its socket in time'}; see ${paths.logFile}`;
    log.error('embedded runtime failed to start', { message, logTail: tail(paths.logFile) });
    return { ok: false, endpoint: paths.endpoint, reason: 'RuntimeSpawnFailed', message };
  } finally {
    closeSync(fd);
  }
}

async function waitForSocket(paths: RuntimePaths, deps: LauncherDeps, stillHoping: () => boolean): Promise<boolean> {
  const deadline = deps.clock.monotonic() + (deps.startTimeoutMs ?? 30_000);
  let announced = deps.clock.monotonic();
  while (deps.clock.monotonic() < deadline && stillHoping()) {
    if (await probeEndpoint(paths.endpoint, 500)) return true;
    if (deps.clock.monotonic() - announced >= 5000) {
      deps.logger.info('waiting for the embedded runtime', { endpoint: paths.endpoint });
      announced = deps.clock.monotonic();
    }
    await deps.clock.sleep(100);
  }
  return stillHoping() && probeEndpoint(paths.endpoint, 500);
}

/** The process `pid` lives and is the runtime serving `socket` (a pid reused by something else is not). */
export function isRuntimeProcess(pid: number, socket: string): boolean {
  if (!alive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(socket);
  } catch {
    return false;
  }
}

export function readPid(file: string): number | undefined {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-10).join('\n');
  } catch {
    return '';
  }
}
