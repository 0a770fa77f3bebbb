/** Processes of a cgroup (cAdvisor's /api/v2.0/ps) and the cgroup a process lives in, from /proc. */
import type { CgroupLayout, HostFs } from '../cm/types.ts';
import { readOptional } from '../cm/types.ts';
import type { ProcessInfo } from './stats-api.ts';

/** The process's logical cgroup: the memory controller's path on v1, the unified path on v2. */
export function cgroupFromProcFile(text: string, layout: CgroupLayout): string | undefined {
  let unified: string | undefined;
  for (const line of text.split('\n')) {
    const [id, ctrls, path] = [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1, line.lastIndexOf(':')), line.slice(line.lastIndexOf(':') + 1)];
    if (!path) continue;
    if (id === '0' && ctrls === '') unified = path;
    else if (layout.driver === 'v1' && ctrls.split(',').includes('memory')) return path;
  }
  return layout.driver === 'v2' ? unified : undefined;
}

export async function ownCgroup(fs: HostFs, layout: CgroupLayout, pid: number | 'self'): Promise<string | undefined> {
  const text = await readOptional(fs, `/proc/${pid}/cgroup`);
  return text === undefined ? undefined : cgroupFromProcFile(text, layout);
}

function statusFields(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1).trim();
  }
  return out;
}

const kb = (v: string | undefined) => (v ? Number(v.split(/\s+/)[0]) * 1024 || 0 : 0);

/** USER_HZ: /proc/<pid>/stat times are in clock ticks of 1/100 s on every Linux ABI. */
const NS_PER_TICK = 1e9 / 100;
/** PF_KTHREAD in /proc/<pid>/stat flags (include/linux/sched.h): a kernel thread. */
const PF_KTHREAD = 0x00200000;

/** /etc/passwd → uid → user name (the first entry of a uid wins, as getpwuid). */
export function parsePasswd(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const [name, , uid] = line.split(':');
    const n = Number(uid);
    if (name && uid !== undefined && uid !== '' && Number.isInteger(n) && !out.has(n)) out.set(n, name);
  }
  return out;
}

/** /proc/<pid>/stat: user + system CPU time (ns) and whether it is a kernel thread; the comm may hold spaces and ')'. */
export function parseProcStat(text: string): { cpuNanoseconds: number; kernelThread: boolean } | undefined {
  const f = text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/);
  const flags = Number(f[6]);
  const utime = Number(f[11]);
  const stime = Number(f[12]);
  if (![flags, utime, stime].every(Number.isFinite)) return undefined;
  return { cpuNanoseconds: (utime + stime) * NS_PER_TICK, kernelThread: (flags & PF_KTHREAD) !== 0 };
}

async function readProcess(fs: HostFs, layout: CgroupLayout, pid: number, users: Map<number, string>): Promise<ProcessInfo | undefined> {
  const [status, cmdline, stat, cg] = await Promise.all([
    readOptional(fs, `/proc/${pid}/status`),
    readOptional(fs, `/proc/${pid}/cmdline`),
    readOptional(fs, `/proc/${pid}/stat`),
    ownCgroup(fs, layout, pid),
  ]);
  if (status === undefined) return undefined;
  const f = statusFields(status);
  const cmd = (cmdline ?? '').split('\0').filter(Boolean).join(' ') || `[${f['Name'] ?? ''}]`;
  const uid = (f['Uid'] ?? '').split(/\s+/)[0] ?? '';
  const st = stat === undefined ? undefined : parseProcStat(stat);
  return {
    pid,
    ppid: Number(f['PPid'] ?? 0),
    uid: Number(uid),
    user: users.get(Number(uid)) ?? uid,
    cmd,
    cgroup: cg ?? '/',
    threads: Number(f['Threads'] ?? 0),
    rssBytes: kb(f['VmRSS']),
    virtualBytes: kb(f['VmSize']),
    cpuNanoseconds: st?.cpuNanoseconds ?? 0,
    kernelThread: st?.kernelThread ?? (pid === 2 || Number(f['PPid']) === 2),
  };
}

/** Every process whose cgroup is `key` or below it ('/' = all processes). */
export async function listProcesses(fs: HostFs, layout: CgroupLayout, key: string): Promise<ProcessInfo[]> {
  let entries: { name: string }[] = [];
  try {
    entries = await fs.readdir('/proc');
  } catch {
    return [];
  }
  const pids = entries.map((e) => Number(e.name)).filter((n) => Number.isInteger(n) && n > 0);
  // User names from the node's /etc/passwd (numeric uid when it has none, e.g. a uid only a container image knows).
  const users = parsePasswd((await readOptional(fs, '/etc/passwd')) ?? '');
  const all = await Promise.all(pids.map((p) => readProcess(fs, layout, p, users)));
  const under = (cg: string) => key === '/' || cg === key || cg.startsWith(`${key}/`);
  return all.filter((p): p is ProcessInfo => p !== undefined && under(p.cgroup)).sort((a, b) => a.pid - b.pid);
}
