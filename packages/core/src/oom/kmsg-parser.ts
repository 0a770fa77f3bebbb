/**
 * /dev/kmsg parsing: the record envelope, and the OOM lines the kernel prints for one kill:
 *   oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=...,mems_allowed=0,oom_memcg=/kubepods/...,
 *            task_memcg=/kubepods/burstable/pod<uid>/<cid>,task=dd,pid=1234,uid=0          (kernel ≥ 4.19)
 *   Task in /kubepods/.../<cid> killed as a result of limit of /kubepods/...               (older kernels)
 *   Memory cgroup out of memory: Killed process 1234 (dd) total-vm:...kB, anon-rss:...     (memcg kill)
 *   Out of memory: Killed process 1234 (dd) ...                                            (system OOM)
 * The cgroup line comes first, the "Killed process" line completes the event.
 */
import { parsePodCgroup } from '../cm/types.ts';
import type { KmsgRecord, OomEvent } from './types.ts';

export function parseKmsgRecord(raw: string): KmsgRecord | undefined {
  const semi = raw.indexOf(';');
  if (semi < 0) return undefined;
  const [prio, seq, usec] = raw.slice(0, semi).split(',');
  const p = Number(prio);
  if (!Number.isInteger(p) || seq === undefined || usec === undefined) return undefined;
  const message = (raw.slice(semi + 1).split('\n')[0] ?? '').replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return { priority: p & 7, facility: p >> 3, seq: Number(seq), timestampUsec: Number(usec), message };
}

interface Pending {
  constraint: string;
  oomCgroup: string;
  taskCgroup: string;
  pid?: number;
  processName?: string;
}

const field = (s: string, key: string): string | undefined => new RegExp(`(?:^|,)${key}=([^,]*)`).exec(s)?.[1];
const KILLED = /(?:Killed|Kill) process (\d+) \(([^)]*)\)/;
const TASK_IN = /Task in (\S+) killed as a result of limit of (\S+)/;

/** Attaches podUid/containerId when the victim's cgroup is in the kubepods tree. */
export function withPod(e: OomEvent): OomEvent {
  const ref = parsePodCgroup(e.taskCgroup);
  if (!ref) return e;
  const out: OomEvent = { ...e, podUid: ref.uid };
  if (ref.containerId !== undefined) out.containerId = ref.containerId;
  return out;
}

/** Stateful: feed messages in order; returns an event when a kill is complete. */
export class OomParser {
  private pending: Pending | undefined;

  feed(message: string, time: number): OomEvent | undefined {
    const i = message.indexOf('oom-kill:');
    if (i >= 0) {
      const s = message.slice(i + 'oom-kill:'.length);
      const pid = Number(field(s, 'pid'));
      this.pending = {
        constraint: field(s, 'constraint') ?? 'CONSTRAINT_NONE',
        oomCgroup: field(s, 'oom_memcg') ?? '/',
        taskCgroup: field(s, 'task_memcg') ?? '/',
        ...(Number.isInteger(pid) ? { pid } : {}),
        ...(field(s, 'task') !== undefined ? { processName: field(s, 'task') } : {}),
      };
      return undefined;
    }
    const t = TASK_IN.exec(message);
    if (t) {
      this.pending = { constraint: 'CONSTRAINT_MEMCG', taskCgroup: t[1] as string, oomCgroup: t[2] as string };
      return undefined;
    }
    const k = KILLED.exec(message);
    if (!k) return undefined;
    const p = this.pending;
    this.pending = undefined;
    const memcg = /Memory cgroup out of memory/.test(message);
    return withPod({
      time,
      pid: Number(k[1]),
      processName: k[2] as string,
      taskCgroup: p?.taskCgroup ?? '/',
      oomCgroup: p?.oomCgroup ?? '/',
      constraint: p?.constraint ?? (memcg ? 'CONSTRAINT_MEMCG' : 'CONSTRAINT_NONE'),
      source: 'kmsg',
    });
  }
}

/** The Node event message upstream records for a system OOM. */
export function systemOomMessage(e: OomEvent): string {
  return `System OOM encountered, victim process: ${e.processName}, pid: ${e.pid}`;
}
