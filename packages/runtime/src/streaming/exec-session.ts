/**
 * An exec session: the command runs in the container like ExecSync (nsenter into its namespaces, root and
 * cgroup); its stdout / stderr go to the client, the client's stdin comes in (its end closes the command's
 * stdin), and the exit is reported as the final Status. With tty=true the command gets a pseudo-terminal
 * (pty.ts): its output is the terminal's, and resize messages set the window size.
 * Attach requests go to attach-session.ts.
 */
import { spawn } from 'node:child_process';
import type { RuntimeContext } from '../runtime/context.ts';
import { execCommand } from '../runtime/exec-sync.ts';
import { descendantsOf, exitCodeOf, killTree, signal } from '../util/proc.ts';
import { exitStatus, failureStatus } from './channel-protocol.ts';
import { runAttachSession } from './attach-session.ts';
import type { ExecIo } from './exec-io.ts';
import { ptyCommand, resizer } from './pty.ts';
import type { ExecStreamRequest } from './streaming-server.ts';

export function runExecSession(ctx: RuntimeContext, io: ExecIo, req: ExecStreamRequest): void {
  if (req.kind === 'attach') return runAttachSession(ctx, io, req);
  const built = execCommand(ctx, req.containerId, req.cmd);
  if (!built.ok) return io.finish(failureStatus(built.message));
  const pty = req.tty ? ptyCommand(built.value.argv) : { argv: built.value.argv, env: {} };
  // With a tty `script` copies stdin to the terminal: it needs a stdin even when the client sends none.
  const stdin = req.stdin || req.tty ? 'pipe' : 'ignore';
  const argv = pty.argv;
  const child = spawn(argv[0]!, argv.slice(1), { env: { ...built.value.env, ...pty.env }, stdio: [stdin, 'pipe', 'pipe', 'ignore'] });
  child.stdout?.on('data', (d: Buffer) => io.stdout?.(d));
  child.stderr?.on('data', (d: Buffer) => (req.tty ? io.stdout : io.stderr)?.(d));
  child.stdin?.on('error', () => undefined);
  if (req.stdin) io.onStdin((d) => child.stdin?.write(d), () => child.stdin?.end());
  if (req.tty) io.onResize(resizer(() => child.pid));
  let done = false;
  io.onGone(() => {
    if (done || !child.pid) return;
    // The client went away: end the exec'd tree (first, so nsenter reaps it), then nsenter itself.
    for (const p of descendantsOf(child.pid).reverse()) signal(p, 'SIGKILL');
    killTree(child.pid, 'SIGKILL');
  });
  child.once('error', (err) => {
    done = true;
    io.finish(failureStatus(`failed to exec in container: ${err.message}`));
  });
  child.once('close', (code, sig) => {
    done = true;
    const exit = exitCodeOf(code, sig);
    ctx.logger.debug('stream exec finished', { id: req.containerId, cmd: req.cmd, exitCode: exit });
    io.finish(exitStatus(exit));
  });
}
