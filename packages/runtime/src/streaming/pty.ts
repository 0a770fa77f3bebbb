/**
 * A pseudo-terminal for exec / attach with tty=true. Node has no pty API, so the command runs under util-linux
 * `script` (it opens a pty pair, runs the command on the slave side as a session leader with it as the
 * controlling terminal, and copies stdin → master → stdout; its environment is the fixed host one). Window size changes are applied to the slave with
 * `stty -F <pts> rows H cols W` (the kernel then signals SIGWINCH to the foreground process group).
 */
import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { descendantsOf } from '../util/proc.ts';
import type { TermSize } from './exec-io.ts';
import { hostEnv } from '../linux/host-env.ts';

export const SCRIPT_BIN = '/usr/bin/script';
export const STTY_BIN = '/usr/bin/stty';

/** One word as a POSIX shell literal: single-quoted, each `'` as `'\''` (no expansion of any kind inside). */
function shellWord(w: string): string {
  return `'${w.replace(/'/g, "'\\''")}'`;
}

/**
 * argv that runs `argv` on a new pty (echo on, as a terminal; exit code passed through). `script` runs its
 * --command through `/bin/sh -c`: the words go there as single-quoted literals after `exec`, so the shell only
 * removes the quotes — nothing of the container's command or env is in any helper's environment.
 */
export function ptyCommand(argv: string[]): { argv: string[]; env: Record<string, string> } {
  const command = `exec ${argv.map(shellWord).join(' ')}`;
  return { argv: [SCRIPT_BIN, '--quiet', '--return', '--echo', 'always', '--flush', '--command', command, '/dev/null'], env: {} };
}

/** The pts that `pid` (a container on a pty) or the command under it (`script`) has as stdin, once running. */
export function ptsOf(pid0: number): string | undefined {
  for (const pid of [pid0, ...descendantsOf(pid0)]) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/0`);
      if (target.startsWith('/dev/pts/')) return target;
    } catch {
      // gone or not ours
    }
  }
  return undefined;
}

/** Apply window sizes to the pty of `pid` (see ptsOf); sizes that come before the pty exists wait for it. */
export function resizer(scriptPid: () => number | undefined, retryMs = 100, tries = 50): (size: TermSize) => void {
  let latest: TermSize | undefined;
  let timer: NodeJS.Timeout | undefined;
  const apply = (left: number) => {
    timer = undefined;
    const pid = scriptPid();
    const pts = pid ? ptsOf(pid) : undefined;
    if (!pts || !latest) {
      if (left > 0 && pid) timer = setTimeout(() => apply(left - 1), retryMs);
      return;
    }
    const { width, height } = latest;
    execFile(STTY_BIN, ['-F', pts, 'rows', String(height), 'cols', String(width)], { env: hostEnv() }, () => undefined);
  };
  return (size) => {
    latest = size;
    if (!timer) apply(tries);
  };
}
