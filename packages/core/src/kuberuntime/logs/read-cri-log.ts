/**
 * Reads a CRI container log file the way the kubelet serves /containerLogs: tail, since, stream, limit,
 * timestamps; with follow, keeps reading appended data (polling on the injected clock, woken early by
 * fs.watch) until the signal aborts or the container is done and the file is drained. Follows a rotation
 * (`file` renamed to `file.1` and a new `file` created) after draining the old file.
 */
import fs from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { LogEmitter } from './emitter.ts';
import { sinceMs, wantsStream } from './parse.ts';
import { findTailOffset } from './tail.ts';
import type { CriLogDeps, CriLogOptions, CriLogSink, ReadCriLogResult } from './types.ts';

export { parseCriLogLine, formatCriLogLine } from './parse.ts';
export type * from './types.ts';

const CHUNK = 64 * 1024;
const NL = 0x0a;

interface OpenLog {
  fh: FileHandle;
  ino: number;
  pos: number;
  /** Bytes after the last newline read so far. */
  rest: Buffer;
}

export async function readCriLog(
  path: string,
  opts: CriLogOptions,
  write: CriLogSink,
  signal: AbortSignal | undefined,
  deps: CriLogDeps,
): Promise<ReadCriLogResult> {
  let log: OpenLog;
  try {
    log = await openLog(path, opts);
  } catch (err) {
    return { ok: false, reason: 'LogNotAvailable', message: `failed to open log file "${path}": ${errText(err)}` };
  }
  const out = new LogEmitter(opts, sinceMs(opts, deps.clock), write);
  const done = (stoppedBy: 'eof' | 'limit' | 'abort' | 'done') =>
    ({ ok: true, bytesWritten: out.bytesWritten, stoppedBy }) as const;
  try {
    for (;;) {
      if (signal?.aborted) return done('abort');
      const got = await drain(log, out);
      if (out.full) return done('limit');
      if (got > 0) continue;
      if (!opts.follow) {
        await finish(log, out);
        return done(out.full ? 'limit' : 'eof');
      }
      const next = await rotated(path, log);
      if (next) {
        await drain(log, out);
        await finish(log, out);
        await log.fh.close();
        log = next;
        continue;
      }
      if (deps.isDone && (await deps.isDone())) {
        if ((await drain(log, out)) > 0) continue;
        await finish(log, out);
        return done(out.full ? 'limit' : 'done');
      }
      await waitForChange(path, deps, signal);
    }
  } finally {
    await log.fh.close().catch(() => {});
  }
}

async function openLog(path: string, opts: CriLogOptions): Promise<OpenLog> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    const pos =
      opts.tailLines != null && opts.tailLines >= 0
        ? await findTailOffset(fh, st.size, opts.tailLines, (r) => wantsStream(opts, r.stream))
        : 0;
    return { fh, ino: st.ino, pos, rest: Buffer.alloc(0) };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** Reads from pos to the current end of file, feeding complete lines. Returns the bytes read. */
async function drain(log: OpenLog, out: LogEmitter): Promise<number> {
  let total = 0;
  const st = await log.fh.stat();
  if (st.size < log.pos) {
    log.pos = 0; // truncated in place (copytruncate): start over
    log.rest = Buffer.alloc(0);
  }
  const buf = Buffer.alloc(CHUNK);
  while (!out.full) {
    const { bytesRead } = await log.fh.read(buf, 0, CHUNK, log.pos);
    if (bytesRead === 0) break;
    log.pos += bytesRead;
    total += bytesRead;
    let data = Buffer.concat([log.rest, buf.subarray(0, bytesRead)]);
    for (let nl = data.indexOf(NL); nl >= 0 && !out.full; nl = data.indexOf(NL)) {
      await out.line(data.subarray(0, nl).toString('utf8'));
      data = data.subarray(nl + 1);
    }
    log.rest = Buffer.from(data);
  }
  return total;
}

/** End of reading a file: a trailing line without newline is still a line; then pending partials. */
async function finish(log: OpenLog, out: LogEmitter): Promise<void> {
  if (log.rest.length > 0) {
    await out.line(log.rest.toString('utf8'));
    log.rest = Buffer.alloc(0);
  }
  await out.flushPartials();
}

/** The file at `path` when it is no longer the one we hold open (rotation), else null. */
async function rotated(path: string, log: OpenLog): Promise<OpenLog | null> {
  let ino: number;
  try {
    ino = (await stat(path)).ino;
  } catch {
    return null; // renamed away, new file not created yet: keep waiting
  }
  if (ino === log.ino) return null;
  try {
    const fh = await open(path, 'r');
    const st = await fh.stat();
    return { fh, ino: st.ino, pos: 0, rest: Buffer.alloc(0) };
  } catch {
    return null;
  }
}

/** Sleeps one poll interval on the clock, or less when fs.watch reports a change or the signal aborts. */
async function waitForChange(path: string, deps: CriLogDeps, signal: AbortSignal | undefined): Promise<void> {
  const wake = new AbortController();
  const onAbort = () => wake.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let watcher: fs.FSWatcher | undefined;
  if (deps.watch ?? true) {
    try {
      watcher = fs.watch(path, { persistent: false }, () => wake.abort());
      watcher.on('error', () => wake.abort());
    } catch {
      watcher = undefined; // file gone between checks: polling covers it
    }
  }
  try {
    await deps.clock.sleep(deps.pollIntervalMs ?? 250, wake.signal);
  } catch {
    // woken early
  } finally {
    watcher?.close();
    signal?.removeEventListener('abort', onAbort);
  }
}

function errText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : String(err);
}
