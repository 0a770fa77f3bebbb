/**
 * The kubelet's DNS configurer over the host: reads --resolv-conf for every sandbox (as GetPodDNS opens it each
 * time), forms the pod's resolver settings (kuberuntime/pod-dns.ts) and records its warnings as events on the pod
 * or the node, with a log line. A resolv.conf that cannot be read fails the sandbox (CreatePodSandboxError).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventRecorder } from '../events/recorder.ts';
import { podRef } from '../events/recorder.ts';
import { parseResolvConf, podDnsConfig, type ResolverConfig } from '../kuberuntime/pod-dns.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

export function podDnsReader(deps: KubeletDeps, config: KubeletConfig, recorder: EventRecorder, nodeIPs: string[]): (pod: V1Pod) => Promise<ResolverConfig> {
  const dns = config.dns ?? { clusterDNS: [], clusterDomain: '', resolvConf: '' };
  const log = deps.logger.child('dns');
  const settings = { clusterDNS: dns.clusterDNS, clusterDomain: dns.clusterDomain, resolvConfSet: dns.resolvConf !== '', nodeIPs };
  return async (pod) => {
    let host: ResolverConfig = { servers: [], searches: [], options: [] };
    if (dns.resolvConf) {
      if (!deps.readHostFile) throw new Error(`cannot read ${dns.resolvConf}: no host file access`);
      const parsed = parseResolvConf(await deps.readHostFile(dns.resolvConf));
      if (parsed.errors.length > 0) throw new Error(parsed.errors.length === 1 ? (parsed.errors[0] as string) : `[${parsed.errors.join(', ')}]`);
      host = parsed;
    }
    return podDnsConfig(pod, settings, host, (w) => {
      const ref = w.target === 'node' ? { kind: 'Node', name: config.nodeName } : podRef(pod);
      recorder.event(ref, 'Warning', w.reason, w.message);
      log.warn(w.message, { pod: `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`, reason: w.reason });
    });
  };
}
