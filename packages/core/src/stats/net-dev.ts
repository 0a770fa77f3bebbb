/** /proc/<pid>/net/dev: the counters of that process's network namespace. */
import { readOptional, type HostFs } from '../cm/types.ts';
import type { InterfaceSample } from './types.ts';

/**
 * Inter-|   Receive                                                |  Transmit
 *  face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
 *   eth0: 1234 ...
 */
export function parseNetDev(text: string): InterfaceSample[] {
  const out: InterfaceSample[] = [];
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i < 0 || line.includes('|')) continue;
    const name = line.slice(0, i).trim();
    const f = line.slice(i + 1).trim().split(/\s+/).map(Number);
    if (f.length < 16 || f.some((n) => !Number.isFinite(n))) continue;
    const v = (k: number) => f[k] ?? 0;
    out.push({
      name,
      rxBytes: v(0),
      rxPackets: v(1),
      rxErrors: v(2),
      rxDropped: v(3),
      txBytes: v(8),
      txPackets: v(9),
      txErrors: v(10),
      txDropped: v(11),
    });
  }
  return out;
}

/**
 * Devices cAdvisor leaves out of a container's network stats (container/libcontainer/handler.go
 * ignoredDevicePrefixes): loopback and the host ends of container veth pairs — counting those would show every
 * pod-to-pod byte twice on the node, once received and once sent.
 */
const IGNORED_DEVICE_PREFIXES = ['lo', 'veth', 'docker', 'nerdctl'];

export function isIgnoredDevice(name: string): boolean {
  const n = name.toLowerCase();
  return IGNORED_DEVICE_PREFIXES.some((p) => n.startsWith(p));
}

/** Counters of the namespace `pid` lives in, without the ignored devices; undefined when the process is gone. */
export async function readNetDev(fs: HostFs, pid: number | 'self', procRoot = '/proc'): Promise<InterfaceSample[] | undefined> {
  const text = await readOptional(fs, `${procRoot}/${pid}/net/dev`);
  return text === undefined ? undefined : parseNetDev(text).filter((i) => !isIgnoredDevice(i.name));
}

/** The kubelet reports "eth0" as the pod's default interface; else the first non-loopback one. */
export function defaultInterface(ifaces: InterfaceSample[], preferred = 'eth0'): InterfaceSample | undefined {
  return ifaces.find((i) => i.name === preferred) ?? ifaces.find((i) => i.name !== 'lo');
}
