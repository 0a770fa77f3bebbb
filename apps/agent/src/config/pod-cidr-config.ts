/**
 * The node's pod range, the kubelet's podCIDR / --pod-cidr (default ""): sent to the runtime through CRI
 * UpdateRuntimeConfig (the embedded runtime's bridge takes it; containerd fills its CNI template with it). Each
 * comma-separated part must be a CIDR (a.b.c.d/n or an IPv6 prefix); anything else stops the agent with the value.
 */
import { isIP } from 'node:net';
import type { FlagSpec } from './flag-spec.ts';

export interface PodCidrAgentConfig {
  podCIDR: string;
}

export const POD_CIDR_DEFAULTS: PodCidrAgentConfig = { podCIDR: '' };

export const POD_CIDR_FLAG_SPECS: FlagSpec<keyof PodCidrAgentConfig>[] = [
  { name: 'pod-cidr', kind: 'string', key: 'podCIDR', help: 'The CIDR pod IPs come from (standalone; sent to the runtime). Default: the runtime\'s own range.' },
];

export const POD_CIDR_FILE_FIELDS = [{ path: 'podCIDR', key: 'podCIDR', kind: 'string' }] as const;

export function validatePodCidr(c: PodCidrAgentConfig): string | undefined {
  if (c.podCIDR === '') return undefined;
  const bad = c.podCIDR.split(',').find((part) => !isCidr(part.trim()));
  return bad === undefined ? undefined : `podCIDR: "${bad}" is not a valid CIDR (e.g. 10.244.1.0/24)`;
}

/** a.b.c.d/0-32 or an IPv6 address /0-128. */
export function isCidr(s: string): boolean {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(s);
  if (!m) return false;
  const family = isIP(m[1]!);
  const bits = Number(m[2]);
  return family === 4 ? bits <= 32 : family === 6 ? bits <= 128 : false;
}
