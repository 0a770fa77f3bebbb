/**
 * The embedded runtime's pod subnet: one /24 of 10.89.0.0/16 per runtime instance (containerd's test CNI
 * uses 10.88.0.0/16), chosen among those no host route covers yet, so that runtimes of several root dirs on
 * one host (tests run many) never lease the same address on the shared bridge.
 */
import { createHash } from 'node:crypto';

export const POD_SUPERNET = '10.89.0.0/16';

export interface Route {
  iface: string;
  net: number;
  mask: number;
}

const toInt = (ip: string): number => ip.split('.').reduce((a, o) => ((a << 8) | Number(o)) >>> 0, 0);
const toIp = (n: number): string => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
const maskOf = (bits: number): number => (bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0);

/** `a.b.c.d/n` → network and mask as unsigned ints. */
export function parseCidr(cidr: string): { net: number; mask: number } {
  const [ip = '0.0.0.0', bits = '32'] = cidr.split('/');
  const mask = maskOf(Number(bits));
  return { net: (toInt(ip) & mask) >>> 0, mask };
}

/** Routes of /proc/net/route (destination and mask are little-endian hex); the default route is left out. */
export function parseProcRoutes(text: string): Route[] {
  const le = (hex: string) => {
    const n = parseInt(hex, 16) >>> 0;
    return (((n & 255) << 24) | (((n >>> 8) & 255) << 16) | (((n >>> 16) & 255) << 8) | (n >>> 24)) >>> 0;
  };
  return text
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 8)
    .map((f) => ({ iface: f[0]!, net: le(f[1]!), mask: le(f[7]!) }))
    .filter((r) => r.mask !== 0);
}

/** Whether any route overlaps the subnet. */
export function routed(subnet: string, routes: Route[]): boolean {
  const s = parseCidr(subnet);
  return routes.some((r) => {
    const mask = Math.min(r.mask, s.mask) >>> 0;
    return ((r.net & mask) >>> 0) === ((s.net & mask) >>> 0);
  });
}

/** A free /24 of the supernet, starting from a slot derived from `seed` (the root dir); undefined when all are taken. */
export function pickSubnet(seed: string, routes: Route[]): string | undefined {
  const base = parseCidr(POD_SUPERNET).net;
  const start = createHash('sha256').update(seed).digest().readUInt8(0);
  for (let i = 0; i < 256; i++) {
    const slot = (start + i) % 256;
    const cidr = `${toIp((base | (slot << 8)) >>> 0)}/24`;
    if (!routed(cidr, routes)) return cidr;
  }
  return undefined;
}

/**
 * The pod range a kubelet sent (UpdateRuntimeConfig pod_cidr, comma-separated for dual stack): its IPv4 part as
 * a network address (10.244.1.7/24 → 10.244.1.0/24), or why it cannot serve as the bridge's range.
 */
export function podRangeOf(podCidr: string): { ok: true; cidr: string } | { ok: false; message: string } {
  const parts = podCidr.split(',').map((p) => p.trim());
  const bad = parts.find((p) => !/^[0-9a-fA-F:.]+\/\d{1,3}$/.test(p) || (isIPv4(p.split('/')[0]!) ? Number(p.split('/')[1]) > 32 : !p.includes(':') || Number(p.split('/')[1]) > 128));
  if (bad !== undefined) return { ok: false, message: `invalid pod CIDR ${JSON.stringify(bad)}: expected an address/prefix such as 10.244.1.0/24` };
  const v4 = parts.find((p) => isIPv4(p.split('/')[0]!));
  if (!v4) return { ok: false, message: `pod CIDR ${JSON.stringify(podCidr)} has no IPv4 range (the embedded runtime's bridge is IPv4)` };
  const bits = Number(v4.split('/')[1]);
  if (bits > 30) return { ok: false, message: `pod CIDR ${JSON.stringify(v4)} is too small: at most /30 (a gateway and one pod)` };
  return { ok: true, cidr: `${toIp(parseCidr(v4).net)}/${bits}` };
}

function isIPv4(ip: string): boolean {
  const o = ip.split('.');
  return o.length === 4 && o.every((x) => /^\d{1,3}$/.test(x) && Number(x) <= 255);
}

/** The first host address of a subnet: the bridge's gateway address. */
export function gatewayOf(subnet: string): string {
  return toIp((parseCidr(subnet).net + 1) >>> 0);
}
