/** Pure model of the Resources page: the CPU list format, each CPU's role, and which live events change the view. */
import type { ContainerRef, CpuResourcesView, NodeletEvent } from '../../lib/api-types.ts';

/** The Linux CPU list format (`0-3,8,10-11`) as ids, ascending; '' is none. Malformed parts are skipped. */
export function parseCpuList(list: string): number[] {
  const out = new Set<number>();
  for (const part of list.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) continue;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let i = from; i <= to && i - from < 4096; i++) out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

export type CpuRole = 'shared' | 'reserved' | 'exclusive' | 'offline';

export interface CpuCell {
  id: number;
  role: CpuRole;
  holder?: ContainerRef;
}

/** Every online CPU with its role: exclusive to a container, reserved for the system, or in the shared pool. */
export function cpuCells(cpu: CpuResourcesView): CpuCell[] {
  const exclusive = new Map<number, ContainerRef>();
  for (const a of cpu.exclusive) for (const id of parseCpuList(a.cpus)) exclusive.set(id, { pod: a.pod, container: a.container });
  const reserved = new Set(parseCpuList(cpu.reserved));
  const shared = new Set(parseCpuList(cpu.shared));
  const ids = new Set([...parseCpuList(cpu.online), ...exclusive.keys(), ...reserved, ...shared]);
  return [...ids].sort((a, b) => a - b).map((id) => {
    const holder = exclusive.get(id);
    if (holder) return { id, role: 'exclusive', holder };
    if (reserved.has(id)) return { id, role: 'reserved' };
    return { id, role: shared.has(id) ? 'shared' : 'offline' };
  });
}

/** `namespace/name` of a holder (its uid when the pod is no longer known). */
export function holderName(h: ContainerRef): string {
  return h.pod.name ? `${h.pod.namespace}/${h.pod.name}` : `pod ${h.pod.uid}`;
}

/**
 * Whether a live event may change the view: device events, pods added or removed, containers started or gone
 * (exclusive CPUs, NUMA memory and devices are taken at admission and given back when a pod's containers go).
 */
export function changesResources(e: NodeletEvent): boolean {
  switch (e.type) {
    case 'device':
    case 'podConfig':
      return true;
    case 'pleg':
      return e.pleg === 'ContainerStarted' || e.pleg === 'ContainerDied' || e.pleg === 'ContainerRemoved';
    case 'decision':
      return e.decision !== 'sync';
    default:
      return false;
  }
}
