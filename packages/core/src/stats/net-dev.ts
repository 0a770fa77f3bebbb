/** /proc/<pid>/net/dev: the counters of that process's network namespace. */
import { isBlank, parseNumber } from './parse.ts';
import type { FileBytes } from './stat-files.ts';
import type { InterfaceSample } from './types.ts';

/** The first 12 counters of a line (receive 0–7, transmit 8–11), reused by every parse. */
const fields = new Float64Array(12);

/**
 * /proc/<pid>/net/dev in b[0, n), from its bytes: one object per interface line, nothing per header line or field.
 *
 * Inter-|   Receive                                                |  Transmit
 *  face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
 *   eth0: 1234 ...
 *
 * A line counts when it has a ':', no '|', and at least 16 numeric fields after the colon; `skip` leaves interfaces
 * out by name.
 */
export function parseNetDev(b: Buffer, n: number, skip?: (name: string) => boolean): InterfaceSample[] {
  const out: InterfaceSample[] = [];
  for (let i = 0; i < n; ) {
    let end = i;
    let colon = -1;
    let bar = false;
    for (; end < n && b[end] !== 10; end++) {
      if (b[end] === 58 && colon < 0) colon = end;
      else if (b[end] === 124) bar = true;
    }
    const line = i;
    i = end + 1;
    if (colon < 0 || bar) continue;
    let count = 0;
    let numeric = true;
    for (let j = colon + 1; j < end; ) {
      while (j < end && isBlank(b[j] as number)) j++;
      if (j >= end) break;
      const a = j;
      while (j < end && !isBlank(b[j] as number)) j++;
      const v = parseNumber(b, a, j);
      if (!Number.isFinite(v)) numeric = false;
      if (count < fields.length) fields[count] = v;
      count++;
    }
    if (count < 16 || !numeric) continue;
    let a = line;
    let e = colon;
    while (a < e && isBlank(b[a] as number)) a++;
    while (e > a && isBlank(b[e - 1] as number)) e--;
    const name = b.toString('utf8', a, e);
    if (skip?.(name)) continue;
    const [rxBytes = 0, rxPackets = 0, rxErrors = 0, rxDropped = 0, , , , , txBytes = 0, txPackets = 0, txErrors = 0, txDropped = 0] = fields;
    out.push({ name, rxBytes, rxPackets, rxErrors, rxDropped, txBytes, txPackets, txErrors, txDropped });
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
export function readNetDev(f: FileBytes, pid: number | 'self', procRoot = '/proc'): InterfaceSample[] | undefined {
  const n = f.read(`${procRoot}/${pid}/net/dev`);
  return n < 0 ? undefined : parseNetDev(f.buf, n, isIgnoredDevice);
}

/** The kubelet reports "eth0" as the pod's default interface; else the first non-loopback one. */
export function defaultInterface(ifaces: InterfaceSample[], preferred = 'eth0'): InterfaceSample | undefined {
  return ifaces.find((i) => i.name === preferred) ?? ifaces.find((i) => i.name !== 'lo');
}
