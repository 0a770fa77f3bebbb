/** The command-line flags the agent accepts: the kubelet's names, plus a few nodelet-only ones for tests. */
import type { PartialSettings } from './types.ts';
import { EVICTION_FLAG_SPECS } from './eviction-config.ts';
import { APISERVER_FLAG_SPECS } from './apiserver-config.ts';
import { BOOTSTRAP_FLAG_SPECS } from './bootstrap-config.ts';
import type { FlagSpec as AnyFlagSpec } from './flag-spec.ts';
import { HTTP_FLAG_SPECS } from './http-config.ts';
import { RUNTIME_CLASS_FLAG_SPECS } from './runtime-class-config.ts';
import { LOG_FLAG_SPECS } from './log-config.ts';
import { RECORDER_FLAG_SPECS } from './recorder-config.ts';
import { DNS_FLAG_SPECS } from './dns-config.ts';
import { POD_CIDR_FLAG_SPECS } from './pod-cidr-config.ts';
import { SHUTDOWN_FLAG_SPECS } from './shutdown-config.ts';
import { ROTATION_FLAG_SPECS } from './rotation-config.ts';
import { CPU_MANAGER_FLAG_SPECS } from './cpu-manager-config.ts';
import { TOPOLOGY_MEMORY_FLAG_SPECS } from './topology-memory-config.ts';
import { FEATURE_GATES_FLAG_SPECS } from './feature-gates-config.ts';

/** A flag that sets one of the agent's settings. */
export type FlagSpec = AnyFlagSpec<keyof PartialSettings>;

export const FLAG_SPECS: FlagSpec[] = [
  { name: 'config', kind: 'string', help: 'Path to a KubeletConfiguration (kubelet.config.k8s.io/v1beta1) YAML file. Flags override it.' },
  { name: 'root-dir', kind: 'string', key: 'rootDir', help: 'Directory for the agent state (pki/, runtime/).', defaultText: '/var/lib/kubelet' },
  { name: 'pod-manifest-path', kind: 'string', key: 'podManifestPath', help: 'Static pod manifests: a directory or a file (staticPodPath).' },
  { name: 'manifest-url', kind: 'string', key: 'manifestUrl', help: 'URL serving static pod manifests (staticPodURL).' },
  { name: 'container-runtime-endpoint', kind: 'string', key: 'containerRuntimeEndpoint', help: 'CRI endpoint (unix:///path.sock). Default: the embedded runtime at unix://<root-dir>/runtime/nodelet.sock, started if absent.' },
  { name: 'node-name', kind: 'string', key: 'nodeName', help: 'Node name.', defaultText: 'the hostname, lowercased' },
  { name: 'hostname-override', kind: 'string', key: 'nodeName', help: 'Same as --node-name (the kubelet\'s name for it).' },
  { name: 'address', kind: 'string', key: 'address', help: 'IP address for the kubelet (--port) and read-only servers.', defaultText: '0.0.0.0' },
  { name: 'port', kind: 'int', key: 'port', help: 'Kubelet API port (TLS).', defaultText: '10250' },
  { name: 'read-only-port', kind: 'int', key: 'readOnlyPort', help: 'Read-only port without authentication; 0 disables.', defaultText: '10255 (0 with --config)' },
  { name: 'healthz-port', kind: 'int', key: 'healthzPort', help: 'Healthz port; 0 disables.', defaultText: '10248' },
  { name: 'healthz-bind-address', kind: 'string', key: 'healthzBindAddress', help: 'IP address for the healthz server.', defaultText: '127.0.0.1' },
  { name: 'anonymous-auth', kind: 'bool', key: 'anonymousAuth', help: 'Allow unauthenticated requests to the kubelet port (as system:anonymous).', defaultText: 'false' },
  { name: 'authorization-mode', kind: 'string', key: 'authorizationMode', help: 'AlwaysAllow or Webhook (SubjectAccessReview; needs --kubeconfig).', defaultText: 'AlwaysAllow (Webhook with --config)' },
  { name: 'client-ca-file', kind: 'string', key: 'clientCAFile', help: 'Extra CA bundle for client certificates (the generated CA is always trusted).' },
  { name: 'tls-cert-file', kind: 'string', key: 'tlsCertFile', help: 'Serving certificate. Default: <root-dir>/pki/kubelet.crt, generated.' },
  { name: 'tls-private-key-file', kind: 'string', key: 'tlsPrivateKeyFile', help: 'Serving key. Default: <root-dir>/pki/kubelet.key, generated.' },
  { name: 'max-pods', kind: 'int', key: 'maxPods', help: 'Maximum number of pods.', defaultText: '110' },
  { name: 'allowed-unsafe-sysctls', kind: 'strings', key: 'allowedUnsafeSysctls', help: 'Comma-separated unsafe sysctls or patterns (ending in *) pods may set; others are refused (SysctlForbidden).' },
  { name: 'sync-frequency', kind: 'duration', key: 'syncFrequencyMs', help: 'Max period between pod syncs.', defaultText: '1m0s' },
  { name: 'file-check-frequency', kind: 'duration', key: 'fileCheckFrequencyMs', help: 'How often the manifest path is checked.', defaultText: '20s' },
  { name: 'http-check-frequency', kind: 'duration', key: 'httpCheckFrequencyMs', help: 'How often the manifest URL is checked.', defaultText: '20s' },
  { name: 'runtime-request-timeout', kind: 'duration', key: 'runtimeRequestTimeoutMs', help: 'Timeout of CRI requests (except long-running ones).', defaultText: '2m0s' },
  { name: 'pleg-relist-period', kind: 'duration', key: 'plegRelistPeriodMs', help: '(nodelet) PLEG relist period.', defaultText: '1s' },
  { name: 'pleg-relist-threshold', kind: 'duration', key: 'plegRelistThresholdMs', help: '(nodelet) PLEG healthy threshold.', defaultText: '3m0s' },
  { name: 'cgroup-root', kind: 'string', key: 'cgroupRoot', help: 'Root cgroup for pods: the QoS tree is <root>/kubepods.', defaultText: '/' },
  { name: 'cgroups-per-qos', kind: 'bool', key: 'cgroupsPerQOS', help: 'Create the QoS cgroup hierarchy (kubepods, burstable, besteffort) and pod cgroups.', defaultText: 'true' },
  { name: 'housekeeping-interval', kind: 'duration', key: 'housekeepingIntervalMs', help: 'Interval between container housekeepings (stats sampling; dynamic up to 1.5x while nothing changes).', defaultText: '10s' },
  { name: 'evented-pleg', kind: 'bool', key: 'eventedPleg', help: '(nodelet) Evented PLEG: hear runtime events (CRI GetContainerEvents or containerd events); relist every 300s as the safety net, every --pleg-relist-period while the stream is down.', defaultText: 'true' },
  { name: 'crashloop-backoff-initial', kind: 'duration', key: 'crashLoopBackOffInitialMs', help: '(nodelet) First CrashLoopBackOff delay.', defaultText: '10s' },
  { name: 'crashloop-backoff-max', kind: 'duration', key: 'crashLoopBackOffMaxMs', help: '(nodelet) CrashLoopBackOff cap.', defaultText: '5m0s' },
  { name: 'volume-stats-agg-period', kind: 'duration', key: 'volumeStatsAggPeriodMs', help: 'How often disk usage (du) of container logs, writable layers and volumes is measured.', defaultText: '1m0s' },
  ...EVICTION_FLAG_SPECS,
  ...APISERVER_FLAG_SPECS,
  ...BOOTSTRAP_FLAG_SPECS,
  ...HTTP_FLAG_SPECS,
  ...RUNTIME_CLASS_FLAG_SPECS,
  ...LOG_FLAG_SPECS,
  ...RECORDER_FLAG_SPECS,
  ...DNS_FLAG_SPECS,
  ...POD_CIDR_FLAG_SPECS,
  ...SHUTDOWN_FLAG_SPECS,
  ...ROTATION_FLAG_SPECS,
  ...CPU_MANAGER_FLAG_SPECS,
  ...TOPOLOGY_MEMORY_FLAG_SPECS,
  ...FEATURE_GATES_FLAG_SPECS,
  { name: 'v', kind: 'int', key: 'verbosity', help: 'Log verbosity; 4 or more logs debug lines.', defaultText: '0' },
];

export function helpText(program: string): string {
  const lines = [`Usage: ${program} [flags]`, '', 'Flags (the kubelet\'s names; flags override --config):'];
  for (const f of FLAG_SPECS) {
    const arg = f.kind === 'bool' ? '' : f.kind === 'duration' ? ' duration' : f.kind === 'int' ? ' int' : f.kind.startsWith('map') ? ' mapStringString' : f.kind === 'strings' ? ' strings' : ' string';
    const def = f.defaultText ? ` (default ${f.defaultText})` : '';
    lines.push(`  --${f.name}${arg}`.padEnd(42) + ` ${f.help}${def}`);
  }
  lines.push(`  -h, --help`.padEnd(42) + ' Show this help.');
  return lines.join('\n') + '\n';
}
