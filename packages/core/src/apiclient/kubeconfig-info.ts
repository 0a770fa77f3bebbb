/**
 * What a kubeconfig's current context names, as @kubernetes/client-node's KubeConfig reads it (file paths made
 * absolute against the kubeconfig's directory): the cluster (server, CA file or data, insecure flag) and the user's
 * credentials (client certificate / key as files or data, token). The agent's TLS bootstrap checks and rewrites
 * kubeconfigs with it; nothing here talks to a server.
 */
import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';

export interface KubeconfigInfo {
  server: string;
  caFile?: string;
  /** PEM of certificate-authority-data. */
  caData?: string;
  insecureSkipTlsVerify: boolean;
  certFile?: string;
  keyFile?: string;
  token?: string;
  /** The client certificate and key PEM (from the files or the inline data), or why they could not be read. */
  clientCert(): { ok: true; certPem: string; keyPem: string } | { ok: false; reason: string } | undefined;
}

export type KubeconfigRead = { ok: true; info: KubeconfigInfo } | { ok: false; reason: string };

const b64 = (s: string | undefined) => (s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8'));

/** KubeConfig.loadFromFile, its failure as a value naming the file. */
export async function loadKubeConfig(path: string): Promise<{ ok: true; kc: KubeConfig } | { ok: false; reason: string }> {
  // Loaded here, not at the top: only API-server mode needs client-node's KubeConfig (about 70 MiB RSS once loaded).
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(path);
  } catch (err) {
    return { ok: false, reason: `invalid kubeconfig ${path}: ${(err as Error).message}` };
  }
  return { ok: true, kc };
}

export async function readKubeconfig(path: string): Promise<KubeconfigRead> {
  const loaded = await loadKubeConfig(path);
  if (!loaded.ok) return loaded;
  const kc = loaded.kc;
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster?.server) return { ok: false, reason: `invalid kubeconfig ${path}: no server for the current context "${kc.getCurrentContext()}"` };
  if (!user) return { ok: false, reason: `invalid kubeconfig ${path}: no user for the current context` };
  const read = (data: string | undefined, file: string | undefined, what: string): string | { reason: string } | undefined => {
    if (data) return b64(data);
    if (!file) return undefined;
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      return { reason: `cannot read the client ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
    }
  };
  return {
    ok: true,
    info: {
      server: cluster.server,
      ...(cluster.caFile ? { caFile: cluster.caFile } : {}),
      ...(cluster.caData ? { caData: b64(cluster.caData) } : {}),
      insecureSkipTlsVerify: cluster.skipTLSVerify === true,
      ...(user.certFile ? { certFile: user.certFile } : {}),
      ...(user.keyFile ? { keyFile: user.keyFile } : {}),
      ...(user.token ? { token: user.token } : {}),
      clientCert() {
        const cert = read(user.certData, user.certFile, 'certificate');
        const key = read(user.keyData, user.keyFile, 'key');
        if (cert === undefined && key === undefined) return undefined;
        if (typeof cert === 'object') return { ok: false, reason: cert.reason };
        if (typeof key === 'object') return { ok: false, reason: key.reason };
        if (cert === undefined || key === undefined) return { ok: false, reason: `the kubeconfig has a client ${cert === undefined ? 'key' : 'certificate'} but no client ${cert === undefined ? 'certificate' : 'key'}` };
        return { ok: true, certPem: cert, keyPem: key };
      },
    },
  };
}
