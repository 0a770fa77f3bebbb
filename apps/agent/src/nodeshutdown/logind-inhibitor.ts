/**
 * systemd-logind over the system D-Bus, as the kubelet's systemd/inhibit_linux.go (v1.28) uses it, through the
 * Debian command-line tools (Node cannot receive the lock's file descriptor over a unix socket):
 *   - the delay lock: `systemd-inhibit --what=shutdown --who=kubelet --why=... --mode=delay` (package systemd)
 *     holds logind's fd while its child runs; the child reads the agent's pipe, so the lock goes when the agent
 *     releases it or dies;
 *   - PrepareForShutdown: `dbus-monitor --system` with the kubelet's match rule (package dbus-bin);
 *   - InhibitDelayMaxUSec and the reload (KillUnit systemd-logind.service SIGHUP): `busctl --system` (systemd);
 *   - the InhibitDelayMaxSec override: <logind.conf.d>/99-kubelet.conf, as the kubelet writes it.
 * Host-side helper processes: they see no pod data. The bus is the system bus (DBUS_SYSTEM_BUS_ADDRESS when set).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InhibitLock, ShutdownInhibitor } from '@nodelet/core/kubelet';

const LOGIND = ['org.freedesktop.login1', '/org/freedesktop/login1', 'org.freedesktop.login1.Manager'] as const;
const MATCH = "type='signal',interface='org.freedesktop.login1.Manager',member='PrepareForShutdown',path='/org/freedesktop/login1'";
export const LOGIND_CONF_DIR = '/etc/systemd/logind.conf.d';
const KUBELET_LOGIND_CONF = '99-kubelet.conf';
/** How long systemd-inhibit and dbus-monitor may take to get going before the start counts as failed. */
const START_TIMEOUT_MS = 10_000;
const PACKAGE: Record<string, string> = { 'systemd-inhibit': 'systemd', busctl: 'systemd', 'dbus-monitor': 'dbus-bin' };

export interface LogindInhibitorOptions {
  /** Where the InhibitDelayMaxSec drop-in goes (default /etc/systemd/logind.conf.d). */
  logindConfDir?: string;
}

export class LogindInhibitor implements ShutdownInhibitor {
  private readonly locks = new Map<string, ChildProcess>();
  private readonly confDir: string;

  constructor(opts: LogindInhibitorOptions = {}) {
    this.confDir = opts.logindConfDir ?? LOGIND_CONF_DIR;
  }

  async currentInhibitDelaySeconds(): Promise<number> {
    const out = await run('busctl', ['--system', 'get-property', ...LOGIND, 'InhibitDelayMaxUSec']);
    const m = /^t (\d+)/.exec(out.trim());
    if (!m) throw new Error(`unexpected InhibitDelayMaxUSec from logind: ${out.trim()}`);
    return Number(m[1]) / 1e6;
  }

  async overrideInhibitDelay(seconds: number): Promise<void> {
    await mkdir(this.confDir, { recursive: true, mode: 0o755 });
    const body = `# Kubelet logind override\n[Login]\nInhibitDelayMaxSec=${Math.round(seconds)}\n`;
    await writeFile(join(this.confDir, KUBELET_LOGIND_CONF), body, { mode: 0o644 });
  }

  async reloadLogindConf(): Promise<void> {
    await run('busctl', ['--system', 'call', 'org.freedesktop.systemd1', '/org/freedesktop/systemd1', 'org.freedesktop.systemd1.Manager', 'KillUnit', 'ssi', 'systemd-logind.service', 'all', '1']);
  }

  inhibitShutdown(): Promise<InhibitLock> {
    const args = ['--what=shutdown', '--who=kubelet', '--why=Kubelet needs time for critical node pods to terminate', '--mode=delay', 'sh', '-c', 'echo locked; exec cat >/dev/null'];
    const child = spawn('systemd-inhibit', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const started = new Promise<InhibitLock>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.stdout?.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('locked\n')) {
          const id = String(child.pid);
          this.locks.set(id, child);
          child.once('exit', () => this.locks.delete(id));
          resolve({ id });
        }
      });
      child.once('error', (e) => reject(spawnError('systemd-inhibit', e)));
      child.once('exit', (code) => reject(new Error(`failed to inhibit shutdown: systemd-inhibit exited (${code}): ${err.trim()}`)));
    });
    return withStartTimeout(started, 'systemd-inhibit', () => child.kill('SIGKILL'));
  }

  async releaseInhibitLock(lock: InhibitLock): Promise<void> {
    const child = this.locks.get(lock.id);
    if (!child || child.exitCode !== null) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  }

  monitorShutdown(onEvent: (shuttingDown: boolean) => void, onEnd: (err?: string) => void): Promise<{ stop(): void }> {
    const child = spawn('dbus-monitor', ['--system', MATCH], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let stopping = false;
    let ready = false;
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-2000)));
    const started = new Promise<{ stop(): void }>((resolve, reject) => {
      let partial = '';
      let member = '';
      const handle = { stop: () => ((stopping = true), child.kill('SIGTERM')) };
      child.stdout?.setEncoding('utf8').on('data', (d: string) => {
        partial += d;
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (line.startsWith('signal ')) member = /member=(\w+)/.exec(line)?.[1] ?? '';
          // dbus-monitor becomes a monitor by giving up its own name: from then on the match rule is in place.
          if (member === 'NameLost' && !ready) {
            ready = true;
            resolve(handle);
          }
          const b = /^\s+boolean (true|false)/.exec(line);
          if (b && member === 'PrepareForShutdown') onEvent(b[1] === 'true');
        }
      });
      child.once('error', (e) => reject(spawnError('dbus-monitor', e)));
      child.once('exit', (code) => {
        reject(new Error(`failed to monitor shutdown: dbus-monitor exited (${code}): ${err.trim()}`));
        if (ready && !stopping) onEnd(`dbus-monitor exited (${code}): ${err.trim()}`);
      });
    });
    return withStartTimeout(started, 'dbus-monitor', () => ((stopping = true), child.kill('SIGKILL')));
  }
}

/** The promise, or an error (and the helper killed) when it has not settled within START_TIMEOUT_MS. */
function withStartTimeout<T>(p: Promise<T>, cmd: string, kill: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      kill();
      reject(new Error(`${cmd} did not start within ${START_TIMEOUT_MS / 1000}s`));
    }, START_TIMEOUT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: 10_000 }, (e, stdout, stderr) => {
      if (e) reject((e as NodeJS.ErrnoException).code === 'ENOENT' ? spawnError(cmd, e) : new Error(`${cmd} ${args[1] ?? ''}: ${String(stderr).trim() || e.message}`));
      else resolve(stdout);
    });
  });
}

function spawnError(cmd: string, e: Error): Error {
  const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
  return new Error(missing ? `${cmd} not found (Debian package ${PACKAGE[cmd] ?? cmd})` : `${cmd}: ${e.message}`);
}
