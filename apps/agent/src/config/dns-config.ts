/**
 * Pod DNS settings, the kubelet's names: clusterDNS / --cluster-dns (IPs; an entry that is not one is logged
 * and skipped, as the kubelet does), clusterDomain / --cluster-domain (default none) and resolvConf /
 * --resolv-conf (default /etc/resolv.conf; "" gives pods a local resolver).
 */
import { isIP } from 'node:net';
import type { FlagSpec } from './flag-spec.ts';

export interface DnsAgentConfig {
  clusterDNS: string[];
  clusterDomain: string;
  resolvConf: string;
}

export const DNS_DEFAULTS: DnsAgentConfig = { clusterDNS: [], clusterDomain: '', resolvConf: '/etc/resolv.conf' };

export const DNS_FLAG_SPECS: FlagSpec<keyof DnsAgentConfig>[] = [
  { name: 'cluster-dns', kind: 'strings', key: 'clusterDNS', help: 'Comma-separated DNS server IPs for pods with dnsPolicy ClusterFirst (without one they fall back to Default).' },
  { name: 'cluster-domain', kind: 'string', key: 'clusterDomain', help: 'Cluster domain: pods also search <namespace>.svc.<domain>, svc.<domain> and <domain>.' },
  { name: 'resolv-conf', kind: 'string', key: 'resolvConf', help: 'Resolver configuration the pods\' DNS is based on ("" for none: a local resolver).', defaultText: '/etc/resolv.conf' },
];

export const DNS_FILE_FIELDS = [
  { path: 'clusterDNS', key: 'clusterDNS', kind: 'strings' },
  { path: 'clusterDomain', key: 'clusterDomain', kind: 'string' },
  { path: 'resolvConf', key: 'resolvConf', kind: 'string' },
] as const;

/** The kubelet's use of the settings: invalid clusterDNS entries dropped, each reported. */
export function coreDnsConfig(c: DnsAgentConfig): { dns: { clusterDNS: string[]; clusterDomain: string; resolvConf: string }; invalid: string[] } {
  const invalid = c.clusterDNS.filter((ip) => isIP(ip.trim()) === 0);
  return { dns: { clusterDNS: c.clusterDNS.map((ip) => ip.trim()).filter((ip) => isIP(ip) !== 0), clusterDomain: c.clusterDomain, resolvConf: c.resolvConf }, invalid };
}
