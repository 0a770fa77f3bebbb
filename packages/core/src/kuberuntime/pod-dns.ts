/**
 * A pod's resolver settings, as the kubelet's DNS configurer (pkg/kubelet/network/dns/dns.go GetPodDNS) forms
 * them for RunPodSandbox:
 * - `None`: only spec.dnsConfig;
 * - `ClusterFirst` (not hostNetwork) and `ClusterFirstWithHostNet`: the cluster DNS servers (clusterDNS) only,
 *   searches `<ns>.svc.<domain> svc.<domain> <domain>` then the host's, options `ndots:5`; without clusterDNS a
 *   `MissingClusterDNS` warning (pod and node) and the `Default` policy;
 * - `Default` (and `ClusterFirst` on hostNetwork): the host's resolv.conf (--resolv-conf); with --resolv-conf=""
 *   a local resolver (127.0.0.1 / ::1 per node IP) and search ".";
 * then spec.dnsConfig appended (duplicates dropped, options merged by name, the pod's winning), then cut to the
 * limits: 3 nameservers, 32 search paths of at most 253 characters, 2048 characters in all (`DNSConfigForming`).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { formatPod } from '../lifecycle/hooks/run-hooks.ts';

export interface ResolverConfig {
  servers: string[];
  searches: string[];
  options: string[];
}

export interface PodDnsSettings {
  /** clusterDNS / --cluster-dns (IPs; invalid ones already dropped). */
  clusterDNS: string[];
  /** clusterDomain / --cluster-domain ('' = none). */
  clusterDomain: string;
  /** resolvConf / --resolv-conf: was a host file given (its parse is `host`)? */
  resolvConfSet: boolean;
  /** The node's IPs (for the local-resolver fallback). */
  nodeIPs: string[];
}

export type DnsWarning = { target: 'pod' | 'node'; reason: 'MissingClusterDNS' | 'DNSConfigForming'; message: string };

export const MAX_DNS_NAMESERVERS = 3;
export const MAX_DNS_SEARCH_PATHS = 32;
export const MAX_DNS_SEARCH_LIST_CHARS = 2048;
const MAX_SEARCH_PATH_LENGTH = 253;

/** parseResolvConf: nameservers accumulate, the last `search` and `options` lines win; a search's trailing dot goes. */
export function parseResolvConf(text: string): ResolverConfig & { errors: string[] } {
  const out = { servers: [] as string[], searches: [] as string[], options: [] as string[], errors: [] as string[] };
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('#')) continue;
    const f = t.split(/\s+/).filter((x) => x);
    if (f.length === 0) continue;
    if (f[0] === 'nameserver') {
      if (f[1] !== undefined) out.servers.push(f[1]);
      else out.errors.push('nameserver list is empty ');
    }
    if (f[0] === 'search') out.searches = f.slice(1).map((s) => s.replace(/\.$/, ''));
    if (f[0] === 'options') out.options = f.slice(1);
  }
  return out;
}

/** GetPodDNS for a pod, given the host's resolv.conf (empty when --resolv-conf=""). */
export function podDnsConfig(pod: V1Pod, s: PodDnsSettings, host: ResolverConfig, warn: (w: DnsWarning) => void): ResolverConfig {
  let cfg: ResolverConfig = { servers: [...host.servers], searches: [...host.searches], options: [...host.options] };
  const policy = pod.spec?.dnsPolicy ?? 'ClusterFirst';
  const hostNetwork = pod.spec?.hostNetwork === true;
  let type: 'cluster' | 'host' | 'none' = 'cluster';
  if (policy === 'None') type = 'none';
  else if (policy === 'Default' || (policy === 'ClusterFirst' && hostNetwork)) type = 'host';
  if (type === 'none') cfg = { servers: [], searches: [], options: [] };
  if (type === 'cluster') {
    if (s.clusterDNS.length > 0) {
      cfg.servers = [...s.clusterDNS];
      cfg.searches = clusterSearches(cfg.searches, pod, s.clusterDomain);
      cfg.options = ['ndots:5'];
    } else {
      const msg = 'kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.';
      warn({ target: 'node', reason: 'MissingClusterDNS', message: msg });
      warn({ target: 'pod', reason: 'MissingClusterDNS', message: `pod: ${JSON.stringify(formatPod(pod))}. ${msg}` });
      type = 'host';
    }
  }
  if (type === 'host' && !s.resolvConfSet) {
    cfg.servers.push(...(s.nodeIPs.length > 0 ? s.nodeIPs.map((ip) => (ip.includes(':') ? '::1' : '127.0.0.1')) : ['127.0.0.1']));
    cfg.searches = ['.'];
  }
  const d = pod.spec?.dnsConfig;
  if (d) {
    cfg.servers = unique([...cfg.servers, ...(d.nameservers ?? [])]);
    cfg.searches = unique([...cfg.searches, ...(d.searches ?? [])]);
    cfg.options = mergeOptions(cfg.options, d.options ?? []);
  }
  return fitLimits(cfg, warn);
}

function clusterSearches(hostSearch: string[], pod: V1Pod, domain: string): string[] {
  if (!domain) return hostSearch;
  const ns = pod.metadata?.namespace ?? 'default';
  return unique([`${ns}.svc.${domain}`, `svc.${domain}`, domain, ...hostSearch]);
}

function mergeOptions(existing: string[], pod: Array<{ name?: string; value?: string }>): string[] {
  const m = new Map<string, string>();
  for (const o of existing) {
    const i = o.indexOf(':');
    if (i >= 0) m.set(o.slice(0, i), o.slice(i + 1));
    else m.set(o, '');
  }
  for (const o of pod) m.set(o.name ?? '', o.value ?? '');
  return [...m].map(([k, v]) => (v ? `${k}:${v}` : k));
}

function fitLimits(cfg: ResolverConfig, warn: (w: DnsWarning) => void): ResolverConfig {
  if (cfg.servers.length > MAX_DNS_NAMESERVERS) {
    cfg.servers = cfg.servers.slice(0, MAX_DNS_NAMESERVERS);
    warn({ target: 'pod', reason: 'DNSConfigForming', message: `Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${cfg.servers.join(' ')}` });
  }
  let exceeded = false;
  let search = cfg.searches;
  if (search.length > MAX_DNS_SEARCH_PATHS) {
    search = search.slice(0, MAX_DNS_SEARCH_PATHS);
    exceeded = true;
  }
  const short = search.filter((x) => x.length <= MAX_SEARCH_PATH_LENGTH);
  if (short.length !== search.length) exceeded = true;
  search = short;
  let total = search.join(' ').length;
  if (total > MAX_DNS_SEARCH_LIST_CHARS) {
    let cut = 0;
    for (let i = search.length - 1; i >= 0; i--) {
      total -= (search[i] as string).length + 1;
      cut++;
      if (total <= MAX_DNS_SEARCH_LIST_CHARS) break;
    }
    search = search.slice(0, search.length - cut);
    exceeded = true;
  }
  if (exceeded) warn({ target: 'pod', reason: 'DNSConfigForming', message: `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${search.join(' ')}` });
  return { ...cfg, searches: search };
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

