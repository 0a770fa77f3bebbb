/** PodSandboxConfig from a pod: metadata, labels, hostname, DNS, ports, log directory, cgroup parent, resources and overhead, namespaces. */
import type { V1Pod } from '@kubernetes/client-node';
import type { PodSandboxConfig, PortMapping } from '../cri/types.ts';
import { POD_NAME_LABEL, POD_NAMESPACE_LABEL, POD_UID_LABEL } from '../container/labels.ts';
import { defaultCgroupParent } from './qos.ts';
import type { KubeRuntimeConfig } from './types.ts';
import { podLogDirErrors } from './log-path-checks.ts';
import { podSupplementalGroups } from './supplemental-groups.ts';
import { DEFAULT_SECCOMP_ROOT, seccompProfile } from './seccomp-profile.ts';
import { sandboxResources } from './sandbox-resources.ts';
import type { ResolverConfig } from './pod-dns.ts';

export function podLogsDirectory(podLogsDir: string, pod: V1Pod): string {
  const m = pod.metadata ?? {};
  return `${podLogsDir.replace(/\/$/, '')}/${m.namespace ?? 'default'}_${m.name ?? ''}_${m.uid ?? ''}`;
}

/** podLogsDirectory of a pod whose identity is a safe path element; throws (with the field errors) otherwise. */
export function safePodLogsDirectory(podLogsDir: string, pod: V1Pod): string {
  const unsafe = podLogDirErrors(pod);
  if (unsafe.length > 0) throw new Error(`invalid pod log directory: ${unsafe.join(', ')}`);
  return podLogsDirectory(podLogsDir, pod);
}

export function podLabels(pod: V1Pod): Record<string, string> {
  const m = pod.metadata ?? {};
  return { ...(m.labels ?? {}), [POD_NAME_LABEL]: m.name ?? '', [POD_NAMESPACE_LABEL]: m.namespace ?? 'default', [POD_UID_LABEL]: m.uid ?? '' };
}

function portMappings(pod: V1Pod): PortMapping[] {
  const out: PortMapping[] = [];
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      out.push({
        protocol: p.protocol === 'UDP' ? 'UDP' : p.protocol === 'SCTP' ? 'SCTP' : 'TCP',
        containerPort: p.containerPort,
        hostPort: p.hostPort ?? 0,
        hostIp: p.hostIP ?? '',
      });
    }
  }
  return out;
}

export function namespaceOptions(pod: V1Pod): { network: 'POD' | 'NODE'; pid: 'POD' | 'CONTAINER' | 'NODE'; ipc: 'POD' | 'NODE' } {
  const s = pod.spec;
  return {
    network: s?.hostNetwork ? 'NODE' : 'POD',
    pid: s?.hostPID ? 'NODE' : s?.shareProcessNamespace ? 'POD' : 'CONTAINER',
    ipc: s?.hostIPC ? 'NODE' : 'POD',
  };
}

/** `resolver`: the pod's DNS as the kubelet forms it (pod-dns.ts); without it only spec.dnsConfig. */
export function generatePodSandboxConfig(pod: V1Pod, attempt: number, cfg: KubeRuntimeConfig, resolver?: ResolverConfig): PodSandboxConfig {
  const m = pod.metadata ?? {};
  const s = pod.spec;
  const sc = s?.securityContext;
  const privileged = [...(s?.initContainers ?? []), ...(s?.containers ?? [])].some((c) => c.securityContext?.privileged === true);
  const sysctls = Object.fromEntries((sc?.sysctls ?? []).map((x) => [x.name, x.value]));
  // the pod-level profile for the sandbox (generatePodSandboxLinuxConfig); Localhost without a profile never passes validation
  const seccomp = seccompProfile(pod, undefined, cfg.rootDir ? `${cfg.rootDir.replace(/\/$/, '')}/seccomp` : DEFAULT_SECCOMP_ROOT);
  const config: PodSandboxConfig = {
    metadata: { name: m.name ?? '', namespace: m.namespace ?? 'default', uid: m.uid ?? '', attempt },
    labels: podLabels(pod),
    annotations: { ...(m.annotations ?? {}) },
    logDirectory: podLogsDirectory(cfg.podLogsDir, pod),
    portMappings: portMappings(pod),
    linux: {
      cgroupParent: (cfg.cgroupParent ?? defaultCgroupParent)(pod),
      ...sandboxResources(pod),
      sysctls,
      securityContext: {
        namespaceOptions: namespaceOptions(pod),
        privileged,
        ...(sc?.runAsUser !== undefined ? { runAsUser: { value: sc.runAsUser } } : {}),
        ...(sc?.runAsGroup !== undefined ? { runAsGroup: { value: sc.runAsGroup } } : {}),
        ...(podSupplementalGroups(sc) ? { supplementalGroups: podSupplementalGroups(sc) } : {}),
        ...(seccomp.ok ? { seccomp: seccomp.profile } : {}),
      },
    },
  };
  // containerd refuses a hostname for host-network sandboxes (no private UTS namespace).
  if (!s?.hostNetwork) config.hostname = (s?.hostname ?? m.name ?? '').slice(0, 63);
  const dns = s?.dnsConfig;
  if (resolver) config.dnsConfig = resolver;
  else if (dns) config.dnsConfig = { servers: dns.nameservers ?? [], searches: dns.searches ?? [], options: (dns.options ?? []).map((o) => (o.value ? `${o.name}:${o.value}` : (o.name ?? ''))) };
  return config;
}
