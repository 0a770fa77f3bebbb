/**
 * What a certificate must hold (CertificateTemplate: CN, organizations, DNS names, IPs) and whether a certificate
 * holds it (satisfies, certSatisfiesTemplateLocked), with the comparisons the certificate manager's checks use.
 */
import type { X509Certificate } from 'node:crypto';

export interface CertificateTemplate {
  commonName: string;
  organizations: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
}

/** certSatisfiesTemplateLocked: same CN; the template's DNS names, IPs and orgs all present. */
export function satisfies(leaf: X509Certificate, t: CertificateTemplate | undefined): boolean {
  if (!t) return true;
  if (/^CN=(.*)$/m.exec(leaf.subject)?.[1] !== t.commonName) return false;
  const alt = (leaf.subjectAltName ?? '').split(', ');
  const dns = new Set(alt.filter((a) => a.startsWith('DNS:')).map((a) => a.slice(4)));
  const ips = new Set(alt.filter((a) => a.startsWith('IP Address:')).map((a) => canonicalIp(a.slice(11))));
  const orgs = new Set([...leaf.subject.matchAll(/^O=(.*)$/gm)].map((m) => m[1]));
  return (t.dnsNames ?? []).every((n) => dns.has(n)) && (t.ipAddresses ?? []).every((ip) => ips.has(canonicalIp(ip))) && t.organizations.every((o) => orgs.has(o));
}

/** reflect.DeepEqual of two templates (serving templates are sorted and deduplicated). */
export function sameTemplate(a: CertificateTemplate | undefined, b: CertificateTemplate | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One spelling per address: IPv6 as eight lowercase groups without leading zeros (X509 may print either). */
export function canonicalIp(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => g.replace(/^0+(?=.)/, '')).join(':');
}
