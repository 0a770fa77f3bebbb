/**
 * TLS bootstrap flags (the kubelet's; no KubeletConfiguration fields): --bootstrap-kubeconfig (a kubeconfig with a
 * bootstrap token, used to request a client certificate when --kubeconfig is missing or its certificate expired)
 * and --cert-dir (where the issued certificates are kept; default <root-dir>/pki as the kubelet's /var/lib/kubelet/pki).
 */
import type { FlagSpec } from './flag-spec.ts';

export interface BootstrapAgentConfig {
  /** --bootstrap-kubeconfig: request a client certificate with it, then write --kubeconfig. */
  bootstrapKubeconfig?: string;
  /** --cert-dir: kubelet-client-current.pem and friends ('' until load-config resolves it to <root-dir>/pki). */
  certDir: string;
}

export const BOOTSTRAP_DEFAULTS: BootstrapAgentConfig = { certDir: '' };

export const BOOTSTRAP_FLAG_SPECS: FlagSpec<keyof BootstrapAgentConfig>[] = [
  {
    name: 'bootstrap-kubeconfig',
    kind: 'string',
    key: 'bootstrapKubeconfig',
    help: 'kubeconfig with a bootstrap token: when --kubeconfig does not exist (or its client certificate expired), request a client certificate (CSR) with it, then write --kubeconfig pointing at <cert-dir>/kubelet-client-current.pem.',
  },
  { name: 'cert-dir', kind: 'string', key: 'certDir', help: 'Directory of the TLS certificates (kubelet-client-current.pem, ...).', defaultText: '<root-dir>/pki' },
];

export function validateBootstrap(c: BootstrapAgentConfig & { kubeconfig?: string }): string | undefined {
  if (c.bootstrapKubeconfig && !c.kubeconfig) return '--bootstrap-kubeconfig needs --kubeconfig: the path the bootstrapped kubeconfig is written to';
  return undefined;
}
