/**
 * An exec session on an open WebSocket: the command runs in the container like ExecSync (nsenter into its
 * namespaces, root and cgroup); stdout / stderr go out on channels 1 / 2, stdin comes in on channel 0 (v5: a
 * CLOSE message for channel 0 ends it), and the exit is reported as a v1 Status on channel 3. No pty: with
 * tty=true stderr is merged into stdout (as a terminal would show it) and resize messages are ignored.
 * Attach requests go to attach-session.ts.
 */
import { spawn } from 'node:child_process';
import type { WebSocket } from 'ws';
import type { RuntimeContext } from '../runtime/context.ts';
import { execCommand } from '../runtime/exec-sync.ts';
import { descendantsOf, killTree, signal } from '../util/proc.ts';
import { CLOSE, ERROR, exitStatus, failureStatus, frame, STDERR, STDIN, STDOUT, unframe } from './channel-protocol.ts';
import { runAttachSession } from './attach-session.ts';
import type { ExecStreamRequest } from './streaming-server.ts';

export function runExecSession(ctx: RuntimeContext, ws: WebSocket, req: ExecStreamRequest): void {
  if (req.kind === 'attach') return runAttachSession(ctx, ws, req);
  const built = execCommand(ctx, req.containerId, req.cmd);
  if (!built.ok) return finish(ws, failureStatus(built.message));
  const { argv, env } = built.value;
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: [req.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', 'ignore'] });
  const send = (channel: number) => (d: Buffer) => {
    if (ws.readyState === ws.OPEN) ws.send(frame(channel, d));
  };
  child.stdout?.on('data', req.stdout ? send(STDOUT) : () => undefined);
  child.stderr?.on('data', req.stderr ? send(req.tty ? STDOUT : STDERR) : () => undefined);
  child.stdin?.on('error', () => undefined);
  ws.on('message', (msg: Buffer, isBinary: boolean) => {
    const m = unframe(isBinary ? msg : Buffer.from(msg));
    if (!m) return;
    if (m.channel === STDIN && m.data.length > 0) child.stdin?.write(m.data);
    else if (m.channel === CLOSE && m.data[0] === STDIN) child.stdin?.end();
  });
  let done = false;
  ws.once('close', () => {
    if (done || !child.pid) return;
    // The client went away: end the exec'd tree (first, so nsenter reaps it), then nsenter itself.
    for (const p of descendantsOf(child.pid).reverse()) signal(p, 'SIGKILL');
    killTree(child.pid, 'SIGKILL');
  });
  child.once('error', (err) => {
    done = true;
    finish(ws, failureStatus(`failed to exec in container: ${err.message}`));
  });
  child.once('close', (code, sig) => {
    done = true;
    const exit = code ?? 128 + (sig === 'SIGKILL' ? 9 : 15);
    ctx.logger.debug('stream exec finished', { id: req.containerId, cmd: req.cmd, exitCode: exit });
    finish(ws, exitStatus(exit));
  });
}

/** Write the final status on the error channel and close normally. */
function finish(ws: WebSocket, status: object): void {
  if (ws.readyState !== ws.OPEN) return;
  ws.send(frame(ERROR, JSON.stringify(status)), () => ws.close(1000));
}
