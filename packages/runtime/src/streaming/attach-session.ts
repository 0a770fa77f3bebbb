/**
 * An attach session: the runtime keeps no pipe to a container's main process (its output goes to the CRI log),
 * so attach follows the container's CRI log from its current end: stdout lines on channel 1, stderr on 2 (1 with
 * tty), partial (P) lines without their newline; when the container exits the exit code goes out as the Status
 * on channel 3. Input (stdin) is not connected: the container was not started with an open stdin.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { WebSocket } from 'ws';
import type { RuntimeContext } from '../runtime/context.ts';
import { ERROR, exitStatus, failureStatus, frame, STDERR, STDOUT } from './channel-protocol.ts';
import type { ExecStreamRequest } from './streaming-server.ts';

const POLL_MS = 200;

/** CRI log lines → (stream, text) pieces; an incomplete trailing line is returned as `rest`. */
export function parseCriLog(text: string): { pieces: { stream: 'stdout' | 'stderr'; text: string }[]; rest: string } {
  const lines = text.split('\n');
  const rest = lines.pop() ?? '';
  const pieces: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  for (const line of lines) {
    const m = /^\S+ (stdout|stderr) ([PF]) (.*)$/.exec(line);
    if (m) pieces.push({ stream: m[1] as 'stdout' | 'stderr', text: m[2] === 'F' ? `${m[3]!}\n` : m[3]! });
  }
  return { pieces, rest };
}

export function runAttachSession(ctx: RuntimeContext, ws: WebSocket, req: ExecStreamRequest): void {
  const rec = ctx.store.findContainer(req.containerId);
  if (!rec?.logPath) return finish(ws, failureStatus(`container "${req.containerId}" has no log to attach to`));
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
      const wanted = p.stream === 'stdout' ? req.stdout : req.stderr || (req.tty && req.stdout);
      if (wanted && ws.readyState === ws.OPEN) ws.send(frame(p.stream === 'stderr' && !req.tty ? STDERR : STDOUT, p.text));
    }
  };
  const timer = setInterval(pump, POLL_MS);
  const stop = ctx.events.subscribe((e) => {
    if (e.containerId !== rec.id || e.type !== 'CONTAINER_STOPPED_EVENT') return;
    end();
    pump();
    finish(ws, exitStatus(rec.exitCode));
  });
  const end = () => {
    clearInterval(timer);
    stop();
  };
  ws.once('close', end);
  if (rec.state !== 'CONTAINER_RUNNING') {
    end();
    finish(ws, exitStatus(rec.exitCode));
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function finish(ws: WebSocket, status: object): void {
  if (ws.readyState !== ws.OPEN) return;
  ws.send(frame(ERROR, JSON.stringify(status)), () => ws.close(1000));
}
