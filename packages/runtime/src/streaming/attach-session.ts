/**
 * An attach session: the runtime keeps no pipe to a container's main process (its output goes to the CRI log),
 * so attach follows the container's CRI log from its current end: stdout lines on channel 1, stderr on 2 (1 with
 * tty), partial (P) lines without their newline; when the container exits the exit code goes out as the Status
 * as the final Status. With stdin requested, the client's input goes to the container's open stdin (a container
 * created with stdin: true, see container-stdin.ts); with stdinOnce that stdin closes when the session ends. A
 * container created with tty: true runs on a pty (pty.ts): resize messages set its window size.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { RuntimeContext } from '../runtime/context.ts';
import { exitStatus, failureStatus } from './channel-protocol.ts';
import { attachStdin } from './container-stdin.ts';
import type { ExecIo } from './exec-io.ts';
import { resizer } from './pty.ts';
import type { ExecStreamRequest } from './streaming-server.ts';

const POLL_MS = 200;

/** CRI log lines → (stream, text) pieces; an incomplete trailing line is returned as `rest`. */
export function parseCriLog(text: string): { pieces: { stream: 'stdout' | 'stderr'; text: string }[]; rest: string } {
  const lines = text.split('\n');
  const rest = lines.pop() ?? '';
  const pieces: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  for (const line of lines) {
    const m = /^\S+ (stdout|stderr) ([PF]) ([^\n]*)$/.exec(line);
    if (m) pieces.push({ stream: m[1] as 'stdout' | 'stderr', text: m[2] === 'F' ? `${m[3]!}\n` : m[3]! });
  }
  return { pieces, rest };
}

export function runAttachSession(ctx: RuntimeContext, io: ExecIo, req: ExecStreamRequest): void {
  const rec = ctx.store.findContainer(req.containerId);
  if (!rec?.logPath) return io.finish(failureStatus(`container "${req.containerId}" has no log to attach to`));
  const stdin = req.stdin ? attachStdin(ctx, rec.id) : undefined;
  if (stdin) io.onStdin((d) => stdin.write(d), () => stdin.detach());
  if (req.tty && rec.config.tty) io.onResize(resizer(() => rec.pid));
  const path = rec.logPath;
  let offset = sizeOf(path);
  let rest = '';
  const pump = () => {
    const size = sizeOf(path);
    if (size < offset) offset = 0; // rotated
    if (size === offset) return;
    const fd = openSync(path, 'r');
    const buf = Buffer.alloc(size - offset);
    try {
      readSync(fd, buf, 0, buf.length, offset);
    } finally {
      closeSync(fd);
    }
    offset = size;
    const parsed = parseCriLog(rest + buf.toString('utf8'));
    rest = parsed.rest;
    for (const p of parsed.pieces) {
      const to = p.stream === 'stderr' && !req.tty ? io.stderr : io.stdout;
      to?.(Buffer.from(p.text));
    }
  };
  const timer = setInterval(pump, POLL_MS);
  const stop = ctx.events.subscribe((e) => {
    if (e.containerId !== rec.id || e.type !== 'CONTAINER_STOPPED_EVENT') return;
    end();
    pump();
    io.finish(exitStatus(rec.exitCode));
  });
  const end = () => {
    clearInterval(timer);
    stop();
    stdin?.detach();
  };
  io.onGone(end);
  if (rec.state !== 'CONTAINER_RUNNING') {
    end();
    io.finish(exitStatus(rec.exitCode));
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
