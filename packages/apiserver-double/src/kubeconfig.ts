/** kubeconfig documents (clientcmd v1) pointing at the double, with embedded CA and credentials. */
import { stringify } from 'yaml';

export interface KubeconfigCredentials {
  user: string;
  clientCert?: { cert: string; key: string };
  token?: string;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function kubeconfigYaml(server: string, ca: string | undefined, creds: KubeconfigCredentials): string {
  const cluster: Record<string, unknown> = { server };
  if (ca) cluster['certificate-authority-data'] = b64(ca);
  const user: Record<string, unknown> = {};
  if (creds.clientCert) {
    user['client-certificate-data'] = b64(creds.clientCert.cert);
    user['client-key-data'] = b64(creds.clientCert.key);
  }
  if (creds.token) user.token = creds.token;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'apiserver-double', cluster }],
    users: [{ name: creds.user, user }],
    contexts: [{ name: 'apiserver-double', context: { cluster: 'apiserver-double', user: creds.user } }],
    'current-context': 'apiserver-double',
    preferences: {},
  });
}
