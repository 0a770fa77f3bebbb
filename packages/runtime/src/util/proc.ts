import { readFileSync, readdirSync } from 'node:fs';
import { constants } from 'node:os';

/** A process's exit status as runc and a shell report it: its exit code, or 128 + the number of the signal that killed it. */
export function exitCodeOf(code: number | null, signal: string | null | undefined): number {
  return code ?? 128 + ((signal && constants.signals[signal as NodeJS.Signals]) || 0);
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks): identifies a pid across reuse. */
export function procStartTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[19]);
  } catch {
    return undefined;
  }
}

/** True when `pid` exists, is not a zombie, and (when given) started at `startTime`. */
export function isAlive(pid: number, startTime?: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z' || rest[0] === 'X') return false;
    return startTime === undefined || Number(rest[19]) === startTime;
  } catch {
    return false;
  }
}

/** Direct children of a process (all its threads). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim();
      if (s) out.push(...s.split(/\s+/).map(Number));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** All descendants of `pid`, parents before children. */
export function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    for (const c of childrenOf(p)) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

export function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

export function killTree(pid: number, sig: NodeJS.Signals): void {
  const all = [pid, ...descendantsOf(pid)];
  for (const p of all) signal(p, sig);
}
