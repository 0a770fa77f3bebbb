/**
 * A private "system" D-Bus for tests (a real dbus-daemon on a socket in a temp dir, minimal allow-all policy) and
 * the TEST STAND-IN for systemd-logind on it (logind-standin.py: Inhibit, InhibitDelayMaxUSec, PrepareForShutdown
 * on command). Tools: dbus-daemon (Debian dbus-daemon), python3-gi; the agent's side needs systemd-inhibit and
 * busctl (systemd) and dbus-monitor (dbus-bin).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineReader, stopPid } from './processes.ts';

const STANDIN = fileURLToPath(new URL('./logind-standin.py', import.meta.url));

/** Why the D-Bus tests cannot run here (a missing tool), or undefined. */
export function privateDbusMissing(): string | undefined {
  const need: Array<[string, string[]]> = [
    ['dbus-daemon', ['--version']],
    ['dbus-monitor', ['--help']],
    ['systemd-inhibit', ['--version']],
    ['busctl', ['--version']],
    ['/usr/bin/python3', ['-c', 'from gi.repository import Gio']],
  ];
  for (const [cmd, args] of need) {
    try {
      execFileSync(cmd, args, { stdio: 'ignore' });
    } catch (err) {
      // dbus-monitor --help exits non-zero; only a missing binary counts.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || cmd.includes('python')) return `${cmd} is missing`;
    }
  }
  return undefined;
}

export interface PrivateBus {
  /** For DBUS_SYSTEM_BUS_ADDRESS. */
  address: string;
  stop(): Promise<void>;
}

export async function startPrivateSystemBus(dir: string): Promise<PrivateBus> {
  const socket = join(dir, 'system_bus_socket');
  const conf = join(dir, 'bus.conf');
  const allow = ['method_call', 'signal', 'method_return', 'error'];
  writeFileSync(conf, `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    ${allow.map((t) => `<allow send_type="${t}"/><allow receive_type="${t}"/>`).join('\n    ')}
  </policy>
</busconfig>
`);
  const proc = spawn('dbus-daemon', ['--config-file', conf, '--nofork', '--print-address'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = (await lineReader(proc).waitForLine((l) => l.startsWith('unix:'), 'the bus address')).trim();
  return { address, stop: () => stopChild(proc) };
}

export interface LogindStandin {
  lines: string[];
  /** "shutdown true" / "shutdown false" / "delay <usec>". */
  send(command: string): void;
  waitFor(pred: (line: string) => boolean, what: string): Promise<string>;
  stop(): Promise<void>;
}

/** The stand-in on `address`, reporting InhibitDelayMaxUSec = delayUsec; resolves once it owns the name. */
export async function startLogindStandin(address: string, delayUsec: number): Promise<LogindStandin> {
  const proc = spawn('/usr/bin/python3', [STANDIN], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: address, STANDIN_INHIBIT_DELAY_USEC: String(delayUsec) },
  });
  const { lines, waitForLine } = lineReader(proc);
  await waitForLine((l) => l === 'ready', 'the logind stand-in owning org.freedesktop.login1');
  return {
    lines,
    send: (c) => void proc.stdin?.write(`${c}\n`),
    waitFor: waitForLine,
    stop: () => stopChild(proc),
  };
}

async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.pid && proc.exitCode === null) await stopPid(proc.pid, 3000);
}
