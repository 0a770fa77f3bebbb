/** Pod and host IPs as the kubelet reports them (status.podIPs / hostIPs, the downward API's status.podIP). */
import type { V1Pod } from '@kubernetes/client-node';
import { defaultNodeIP } from '../nodestatus/host-facts.ts';

/** The node's IPs as node status reports them without --node-ip (InternalIP: the first non-loopback IPv4 address). */
export function defaultHostIPs(): string[] {
  const ip = defaultNodeIP();
  return ip ? [ip] : [];
}

const isV6 = (ip: string): boolean => ip.includes(':');

/**
 * As the kubelet: a hostNetwork pod has the node's IPs when the runtime reports none (containerd reports none
 * for host-network sandboxes), one per family, and gets the node's other family when the runtime gave one.
 */
export function podIPsOf(pod: V1Pod, runtimeIps: string[], hostIPs: string[]): string[] {
  if (!pod.spec?.hostNetwork) return runtimeIps;
  const first = (v6: boolean) => hostIPs.find((ip) => isV6(ip) === v6);
  if (runtimeIps.length === 0) return [hostIPs[0], hostIPs[0] && first(!isV6(hostIPs[0]))].filter((x): x is string => !!x);
  const other = runtimeIps.length === 1 ? first(!isV6(runtimeIps[0]!)) : undefined;
  return other ? [runtimeIps[0]!, other] : runtimeIps;
}
