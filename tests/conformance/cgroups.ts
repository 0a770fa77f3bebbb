// Finds pod cgroup directories (pod<uid>, under any kubepods tree of any mounted hierarchy).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/fs/cgroup';

function walk(dir: string, depth: number, want: Set<string>, out: string[]): void {
  if (depth < 0) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const p = join(dir, n);
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      continue;
    }
    if (!isDir) continue;
    if (want.has(n)) out.push(p);
    else walk(p, depth - 1, want, out);
  }
}

/** Pod cgroup dirs still present for these pod UIDs (under `<cgroupRoot>/kubepods` of every hierarchy). */
export function leftoverPodCgroups(uids: string[], cgroupRoot = '/'): string[] {
  const want = new Set(uids.filter(Boolean).flatMap((u) => [`pod${u}`, `pod${u.replaceAll('-', '_')}`]));
  if (want.size === 0 || !existsSync(ROOT)) return [];
  const out: string[] = [];
  for (const top of readdirSync(ROOT)) {
    const kp = join(ROOT, top, cgroupRoot, 'kubepods');
    if (existsSync(kp)) walk(kp, 3, want, out);
    const kps = join(ROOT, top, cgroupRoot, 'kubepods.slice');
    if (existsSync(kps)) walk(kps, 3, want, out);
  }
  return out;
}

/** Removes a test's private cgroup root from every hierarchy; returns what could not be removed. */
export { removeCgroupTree as removeCgroupRoot } from '@nodelet/agent/testing';

/**
 * The agent log's lines about `uids` and about pod cgroups (the last 60), for a test's output when a pod cgroup
 * stays behind: the agent's dir is removed with it.
 */
export function agentLogAbout(logFile: string, uids: string[]): string {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch (err) {
    return `no agent log at ${logFile}: ${String(err)}`;
  }
  const lines = text.split('\n').filter((l) => uids.some((u) => l.includes(u)) || /pod cgroup|orphan|StopContainer|StopPodSandbox|killing/i.test(l));
  return `agent log about ${uids.join(', ')} (last ${Math.min(60, lines.length)} of ${lines.length} lines):\n${lines.slice(-60).join('\n')}`;
}
