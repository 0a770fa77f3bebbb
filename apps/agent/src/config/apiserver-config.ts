/**
 * API-server mode settings: --kubeconfig, --register-node, --node-ip, --node-labels, --kube-api-qps/burst,
 * --authentication-token-webhook (+ the webhook cache TTLs), node status frequencies; their
 * KubeletConfiguration fields, defaults, validation, and the core config.
 */
import { isIP } from 'node:net';
import type { ApiServerConfig } from '@nodelet/core/kubelet';
import type { FlagSpec } from './flag-spec.ts';

export interface ApiServerAgentConfig {
  /** --kubeconfig: join the cluster as a node. */
  kubeconfig?: string;
  registerNode: boolean;
  nodeIP?: string;
  nodeLabels?: Record<string, string>;
  kubeAPIQPS: number;
  kubeAPIBurst: number;
  /** Bearer tokens on 10250 checked with TokenReview. */
  authenticationTokenWebhook: boolean;
  /** authentication.webhook.cacheTTL (2m). */
  authenticationWebhookCacheTtlMs: number;
  /** authorization.webhook.cacheAuthorizedTTL (5m) / cacheUnauthorizedTTL (30s). */
  authorizationWebhookCacheAuthorizedTtlMs: number;
  authorizationWebhookCacheUnauthorizedTtlMs: number;
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  nodeLeaseDurationSeconds: number;
}

export const APISERVER_DEFAULTS: ApiServerAgentConfig = {
  registerNode: true,
  kubeAPIQPS: 50,
  kubeAPIBurst: 100,
  authenticationTokenWebhook: false,
  authenticationWebhookCacheTtlMs: 120_000,
  authorizationWebhookCacheAuthorizedTtlMs: 300_000,
  authorizationWebhookCacheUnauthorizedTtlMs: 30_000,
  nodeStatusUpdateFrequencyMs: 10_000,
  nodeStatusReportFrequencyMs: 300_000,
  nodeLeaseDurationSeconds: 40,
};

export const APISERVER_FLAG_SPECS: FlagSpec<keyof ApiServerAgentConfig>[] = [
  { name: 'kubeconfig', kind: 'string', key: 'kubeconfig', help: 'kubeconfig for the API server (client certificate or token, CA): join the cluster as a node. Without it nodelet runs standalone.' },
  { name: 'register-node', kind: 'bool', key: 'registerNode', help: 'Register the node with the API server.', defaultText: 'true' },
  { name: 'node-ip', kind: 'string', key: 'nodeIP', help: 'The node\'s InternalIP address.', defaultText: 'the first non-loopback IPv4 address' },
  { name: 'node-labels', kind: 'map=', key: 'nodeLabels', help: 'Labels to add when registering the node (key=value,...).' },
  { name: 'kube-api-qps', kind: 'int', key: 'kubeAPIQPS', help: 'QPS to use while talking with the API server.', defaultText: '50' },
  { name: 'kube-api-burst', kind: 'int', key: 'kubeAPIBurst', help: 'Burst to use while talking with the API server.', defaultText: '100' },
  { name: 'authentication-token-webhook', kind: 'bool', key: 'authenticationTokenWebhook', help: 'Use the TokenReview API to authenticate bearer tokens.', defaultText: 'false' },
  { name: 'authentication-token-webhook-cache-ttl', kind: 'duration', key: 'authenticationWebhookCacheTtlMs', help: 'Cache of TokenReview answers.', defaultText: '2m0s' },
  { name: 'authorization-webhook-cache-authorized-ttl', kind: 'duration', key: 'authorizationWebhookCacheAuthorizedTtlMs', help: 'Cache of allowed SubjectAccessReview answers.', defaultText: '5m0s' },
  { name: 'authorization-webhook-cache-unauthorized-ttl', kind: 'duration', key: 'authorizationWebhookCacheUnauthorizedTtlMs', help: 'Cache of denied SubjectAccessReview answers.', defaultText: '30s' },
  { name: 'node-status-update-frequency', kind: 'duration', key: 'nodeStatusUpdateFrequencyMs', help: 'How often the node status is computed and posted if changed.', defaultText: '10s' },
];

export const APISERVER_FILE_FIELDS = [
  { path: 'registerNode', key: 'registerNode', kind: 'bool' },
  { path: 'kubeAPIQPS', key: 'kubeAPIQPS', kind: 'int' },
  { path: 'kubeAPIBurst', key: 'kubeAPIBurst', kind: 'int' },
  { path: 'nodeStatusUpdateFrequency', key: 'nodeStatusUpdateFrequencyMs', kind: 'duration' },
  { path: 'nodeStatusReportFrequency', key: 'nodeStatusReportFrequencyMs', kind: 'duration' },
  { path: 'nodeLeaseDurationSeconds', key: 'nodeLeaseDurationSeconds', kind: 'int' },
] as const;

export function validateApiServer(c: ApiServerAgentConfig & { authorizationMode: string }): string | undefined {
  if (c.nodeIP !== undefined && !isIP(c.nodeIP)) return `nodeIP: "${c.nodeIP}" is not a valid IP address`;
  if (c.kubeAPIQPS < 0) return `kubeAPIQPS: must be >= 0, got ${c.kubeAPIQPS}`;
  if (c.kubeAPIBurst < 0) return `kubeAPIBurst: must be >= 0, got ${c.kubeAPIBurst}`;
  if (c.nodeLeaseDurationSeconds <= 0) return `nodeLeaseDurationSeconds: must be greater than 0`;
  if (c.nodeStatusUpdateFrequencyMs <= 0) return 'nodeStatusUpdateFrequency: must be greater than 0';
  if (!c.kubeconfig && c.authorizationMode === 'Webhook') {
    return 'authorization.mode: Webhook needs an API server (SubjectAccessReview): give --kubeconfig, or set --authorization-mode=AlwaysAllow (or authorization.mode: AlwaysAllow in the config file)';
  }
  if (!c.kubeconfig && c.authenticationTokenWebhook) return 'authentication.webhook.enabled: the token webhook needs an API server (TokenReview): give --kubeconfig';
  return undefined;
}

export function coreApiServerConfig(c: ApiServerAgentConfig, kubeletPort: number): ApiServerConfig {
  return {
    registerNode: c.registerNode,
    ...(c.nodeIP ? { nodeIP: c.nodeIP } : {}),
    ...(c.nodeLabels ? { nodeLabels: c.nodeLabels } : {}),
    kubeletPort,
    nodeStatusUpdateFrequencyMs: c.nodeStatusUpdateFrequencyMs,
    nodeStatusReportFrequencyMs: c.nodeStatusReportFrequencyMs,
    nodeLeaseDurationSeconds: c.nodeLeaseDurationSeconds,
  };
}
