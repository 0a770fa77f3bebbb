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

/**
 * What `script` runs (through `/bin/sh -c`): the words of NODELET_PTY_0, NODELET_PTY_1, ... (ptyCommand) as
 * argv, so no word (a container's command, its env) ever becomes part of a script text; the variables are
 * gone before the exec.
 */
export const PTY_SCRIPT =
  'i=0; set --; while eval "[ -n \\"\\${NODELET_PTY_$i+x}\\" ]"; do eval "set -- \\"\\$@\\" \\"\\$NODELET_PTY_$i\\"; unset NODELET_PTY_$i"; i=$((i+1)); done; exec "$@"';

/** argv + env settings that run `argv` on a new pty (echo on, as a terminal; exit code passed through). */
export function ptyCommand(argv: string[]): { argv: string[]; env: Record<string, string> } {
  const env = Object.fromEntries(argv.map((word, i) => [`NODELET_PTY_${i}`, word]));
  return { argv: [SCRIPT_BIN, '--quiet', '--return', '--echo', 'always', '--flush', '--command', PTY_SCRIPT, '/dev/null'], env };
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
