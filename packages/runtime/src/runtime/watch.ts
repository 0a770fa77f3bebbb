import type { ChildProcess } from 'node:child_process';
import { isAlive } from '../util/proc.ts';
import type { Watched } from './context.ts';

export type ExitInfo = { code: number | null; signal: NodeJS.Signals | null };

/** Track a child we spawned; `onExit` runs once, then the entry is dropped. */
export function watchChild(
  table: Map<string, Watched>,
  id: string,
  child: ChildProcess,
  onExit: (info: ExitInfo) => void,
  extra: Partial<Watched> = {},
): Watched {
  let resolve!: () => void;
  const exited = new Promise<void>((r) => (resolve = r));
  const w: Watched = { child, exited, ...extra };
  table.set(id, w);
  const done = (info: ExitInfo) => {
    try {
      onExit(info);
    } finally {
      if (table.get(id) === w) table.delete(id);
      resolve();
    }
  };
  if (child.exitCode !== null || child.signalCode !== null) done({ code: child.exitCode, signal: child.signalCode });
  else child.once('exit', (code, signal) => done({ code, signal }));
  return w;
}

/** Track a pid we did not spawn (adopted after a runtime restart) by polling /proc. */
export function watchPid(table: Map<string, Watched>, id: string, pid: number, start: number | undefined, onExit: () => void): Watched {
  let resolve!: () => void;
  const exited = new Promise<void>((r) => (resolve = r));
  const w: Watched = { exited };
  w.poll = setInterval(() => {
    if (isAlive(pid, start)) return;
    clearInterval(w.poll);
    try {
      onExit();
    } finally {
      if (table.get(id) === w) table.delete(id);
      resolve();
    }
  }, 500);
  w.poll.unref();
  table.set(id, w);
  return w;
}

/** Wait for a watched process to be recorded as exited, or at most `ms`. */
export async function waitExited(table: Map<string, Watched>, id: string, ms = 10_000): Promise<boolean> {
  const w = table.get(id);
  if (!w) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  const r = await Promise.race([w.exited.then(() => true), timeout]);
  clearTimeout(timer);
  return r;
}
