/**
 * The serving certificate with serverTLSBootstrap (pkg/kubelet/certificate/kubelet.go): the template is
 * O=system:nodes CN=system:node:<name> with the node's addresses as SANs (addressesToHostnamesAndIPs: Hostname
 * and *DNS addresses as DNS names — or IPs when they parse as one —, InternalIP / ExternalIP as IPs; sorted,
 * deduplicated); no template (so no CSR) until the node has an IP address. Issued certificates are swapped into
 * the 10250 listener with setSecureContext: new handshakes get the new pair, open connections (exec, logs
 * follow) keep theirs.
 */
import { isIP } from 'node:net';
import type { CertificateTemplate } from './template.ts';

/** The kubelet's usages for an RSA key; csrRequester drops key encipherment for other keys (v1.27+ GetUsages). */
export const SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
export const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];

export interface NodeAddress {
  type: 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';
  address: string;
}

export function addressesToHostnamesAndIPs(addresses: readonly NodeAddress[]): { dnsNames: string[]; ips: string[] } {
  const dns = new Set<string>();
  const ips = new Set<string>();
  for (const { type, address } of addresses) {
    if (!address) continue;
    if (type === 'Hostname') (isIP(address) ? ips : dns).add(address);
    else if (type === 'InternalIP' || type === 'ExternalIP') {
      if (isIP(address)) ips.add(address);
    } else dns.add(address);
  }
  return { dnsNames: [...dns].sort(), ips: [...ips].sort() };
}

/** The node identity both certificates carry. */
export function nodeTemplate(nodeName: string): CertificateTemplate {
  return { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] };
}

/** newGetTemplateFn: undefined while the node has no IP address (the kubelet v1.28 requires one). */
export function servingTemplate(nodeName: string, addresses: readonly NodeAddress[]): CertificateTemplate | undefined {
  const { dnsNames, ips } = addressesToHostnamesAndIPs(addresses);
  if (ips.length === 0) return undefined;
  return { ...nodeTemplate(nodeName), dnsNames, ipAddresses: ips };
}

/**
 * The addresses the node status reports: InternalIP (--node-ip, else `defaultIp()`: the first non-loopback IPv4,
 * core's defaultNodeIP), Hostname (the node name).
 */
export function nodeAddresses(c: { nodeName: string; nodeIP?: string | undefined }, defaultIp: () => string | undefined): NodeAddress[] {
  const ip = c.nodeIP ?? defaultIp();
  return [...(ip ? [{ type: 'InternalIP' as const, address: ip }] : []), { type: 'Hostname', address: c.nodeName }];
}
