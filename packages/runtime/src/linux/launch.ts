import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { hostEnv } from './host-env.ts';

export type LaunchResult =
  | { ok: true; child: ChildProcess; initPid: number }
  | { ok: false; child: ChildProcess; message: string; exitCode: number | null };

export interface LaunchOptions {
  /** The script's NODELET_* settings; the child's environment is these plus the fixed host env (host-env.ts). */
  env: Record<string, string>;
  /** 'pipe' to capture output (containers), 'ignore' for holders. */
  output: 'pipe' | 'ignore';
  /** 'pipe' keeps an open stdin (containers created with stdin: true); default 'ignore'. */
  stdin?: 'pipe' | 'ignore';
  /** Give up (SIGKILL the child) when setup takes longer (default 60 s). */
  timeoutMs?: number;
}

/**
 * Spawn `argv` with a status channel on fd 3 (see scripts.ts) and wait for `ok` or `err`.
 * The child is left running on success; on failure it has exited (or is killed).
 */
export function launch(argv: string[], opts: LaunchOptions): Promise<LaunchResult> {
  const [file, ...args] = argv;
  const child = spawn(file!, args, {
    env: hostEnv(opts.env),
    stdio: [opts.stdin ?? 'ignore', opts.output, opts.output, 'pipe'],
    detached: false,
  });
  const status = child.stdio[3] as Readable;
  return new Promise((resolve) => {
    let buf = '';
    let pid = 0;
    let done = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ ok: false, child, message: `setup did not finish within ${opts.timeoutMs ?? 60_000} ms`, exitCode: null });
    }, opts.timeoutMs ?? 60_000);
    const finish = (r: LaunchResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      status.removeAllListeners('data');
      status.on('data', () => {});
      status.on('error', () => {});
      resolve(r);
    };
    status.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('pid ')) pid = Number(line.slice(4));
        else if (line === 'ok') finish({ ok: true, child, initPid: pid });
        else if (line.startsWith('err ')) {
          finish({ ok: false, child, message: line.slice(4), exitCode: 128 });
        }
      }
    });
    status.on('error', () => {});
    child.on('error', (err) => finish({ ok: false, child, message: String(err), exitCode: null }));
    // The exit can be seen before the status lines still in the pipe (a SIGCHLD reaps every exited child, also
    // one whose "ok" was written after the loop last polled the pipe): a command that ran and exited at once is no
    // failed setup. So the exit fails the launch only once the status pipe is drained to its end.
    let exited: { code: number | null; sig: NodeJS.Signals | null } | undefined;
    const exitedBeforeStarting = () => {
      if (!exited || !status.destroyed) return;
      const { code, sig } = exited;
      finish({ ok: false, child, message: `setup exited before starting (code ${code}, signal ${sig})`, exitCode: code });
    };
    status.on('close', exitedBeforeStarting);
    child.on('exit', (code, sig) => {
      exited = { code, sig };
      exitedBeforeStarting();
    });
  });
}
