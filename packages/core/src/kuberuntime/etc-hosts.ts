/**
 * The kubelet-managed /etc/hosts (kubelet_pods.go makeHostsMount / ensureHostsFile): written to
 * `<podDir>/etc-hosts` and bind-mounted (read-write) at /etc/hosts of every container that does not mount
 * /etc/hosts itself, once the pod has IPs. A pod on the pod network gets the managed content (localhost
 * entries, its IPs with its FQDN and hostname); a hostNetwork pod gets the node's /etc/hosts under the
 * host-network header. Both end with the pod's hostAliases.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { V1Container, V1HostAlias, V1Pod } from '@kubernetes/client-node';
import type { Mount } from '../volume/types.ts';

export const ETC_HOSTS_PATH = '/etc/hosts';
const MANAGED_HEADER = '# Kubernetes-managed hosts file.\n';
const MANAGED_HEADER_HOST_NETWORK = '# Kubernetes-managed hosts file (host network).\n';

/** hostsEntriesFromHostAliases: a blank line, the comment, then one line per IP with its hostnames tab-separated. */
export function hostsEntriesFromHostAliases(aliases: V1HostAlias[] | undefined): string {
  if (!aliases || aliases.length === 0) return '';
  return '\n# Entries added by HostAliases.\n' + aliases.map((a) => `${a.ip ?? ''}\t${(a.hostnames ?? []).join('\t')}\n`).join('');
}

/** managedHostsFileContent: header, localhost entries, each pod IP with `<hostname>.<domain>\t<hostname>` (or the hostname alone). */
export function managedHostsFileContent(podIPs: string[], hostName: string, hostDomain: string, aliases?: V1HostAlias[]): string {
  const lines = [
    MANAGED_HEADER,
    '127.0.0.1\tlocalhost\n',
    '::1\tlocalhost ip6-localhost ip6-loopback\n',
    'fe00::0\tip6-localnet\n',
    'fe00::0\tip6-mcastprefix\n',
    'fe00::1\tip6-allnodes\n',
    'fe00::2\tip6-allrouters\n',
    ...podIPs.map((ip) => (hostDomain ? `${ip}\t${hostName}.${hostDomain}\t${hostName}\n` : `${ip}\t${hostName}\n`)),
  ];
  return lines.join('') + hostsEntriesFromHostAliases(aliases);
}

/** nodeHostsFileContent: the host-network header, the node's hosts file as it is, then the aliases. */
export function nodeHostsFileContent(nodeHosts: string, aliases?: V1HostAlias[]): string {
  return MANAGED_HEADER_HOST_NETWORK + nodeHosts + hostsEntriesFromHostAliases(aliases);
}

/**
 * GeneratePodHostNameAndDomain: spec.hostname (else the pod name) cut to 63 characters without a trailing
 * '-' or '.'; with spec.subdomain the domain `<subdomain>.<namespace>.svc.<clusterDomain>`.
 */
export function podHostNameAndDomain(pod: V1Pod, clusterDomain: string): { hostName: string; hostDomain: string } {
  let hostName = pod.spec?.hostname || pod.metadata?.name || '';
  if (hostName.length > 63) hostName = hostName.slice(0, 63).replace(/[-.]+$/, '');
  const sub = pod.spec?.subdomain;
  const hostDomain = sub ? `${sub}.${pod.metadata?.namespace ?? 'default'}.svc.${clusterDomain}` : '';
  return { hostName, hostDomain };
}

export interface HostsMountInput {
  podDir: string;
  podIPs: string[];
  clusterDomain?: string;
  /** The node's hosts file (hostNetwork pods); defaults to reading /etc/hosts. */
  readNodeHosts?: () => Promise<string>;
}

/**
 * makeMounts' /etc/hosts part: no mount without pod IPs or when the container mounts /etc/hosts itself;
 * otherwise the file is (re)written (mode 0644) and its mount returned.
 */
export async function makeHostsMount(pod: V1Pod, c: V1Container, input: HostsMountInput): Promise<Mount | undefined> {
  if (input.podIPs.length === 0) return undefined;
  if ((c.volumeMounts ?? []).some((m) => m.mountPath === ETC_HOSTS_PATH)) return undefined;
  const aliases = pod.spec?.hostAliases;
  let content: string;
  if (pod.spec?.hostNetwork) {
    content = nodeHostsFileContent(await (input.readNodeHosts ?? (() => readFile(ETC_HOSTS_PATH, 'utf8')))(), aliases);
  } else {
    const { hostName, hostDomain } = podHostNameAndDomain(pod, input.clusterDomain ?? '');
    content = managedHostsFileContent(input.podIPs, hostName, hostDomain, aliases);
  }
  // Synchronous: written on every container start between RunPodSandbox and CreateContainer; a few hundred bytes
  // of a local file are µs of kernel work, their promises five thread-pool round trips queued behind the agent's
  // other file work (≈ 2 ms of a 140 ms start on this machine).
  mkdirSync(input.podDir, { recursive: true });
  const file = join(input.podDir, 'etc-hosts');
  writeFileSync(file, content, { mode: 0o644 });
  chmodSync(file, 0o644);
  return { containerPath: ETC_HOSTS_PATH, hostPath: file, readonly: false, selinuxRelabel: true };
}
