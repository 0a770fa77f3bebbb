/**
 * The certificate managers for the agent's configuration: the CSR client (csr-client.ts) bound to the API client,
 * the serving template fed with the node's addresses, and the client manager's pairs handed to that API client
 * (at start, and on each rotation).
 */
import { readFileSync } from 'node:fs';
import { readKubeconfig, type ApiClient } from '@nodelet/core/apiclient';
import { defaultNodeIP } from '@nodelet/core/kubelet';
import type { Clock, Logger } from '@nodelet/core/util';
import type { AgentConfig } from '../config/types.ts';
import type { Pki } from '../pki/ensure-pki.ts';
import { requestCertificate } from './csr-client.ts';
import { newPrivateKeyPem, usagesForKey } from './csr-pem.ts';
import { CERTIFICATE_WAIT_TIMEOUT_MS } from './manager.ts';
import type { RequestCertificate } from './manager-deps.ts';
import { certDirOf, createCertificateManagers, type CertificateManagers } from './managers.ts';
import { nodeAddresses } from './serving.ts';

export interface AgentCertificateDeps {
  clock: Clock;
  logger: Logger;
  /** The CSR client bound to an API client (default csrRequester). */
  bindRequest?: (client: ApiClient) => RequestCertificate;
  /** The key generator (default ECDSA P-256): tests sign for an RSA key. */
  newKeyPem?: () => string;
  /** Ends the process when the client certificate has been gone for 5 minutes (exit-after.ts). */
  exit?: (code: number) => void;
}

/** The CSR client (csr-client.ts) for the managers: key encipherment only for RSA keys, as the kubelet's GetUsages. */
export function csrRequester(client: ApiClient, clock: Clock, logger: Logger): RequestCertificate {
  return (spec, signal, onCreated) =>
    requestCertificate(
      client,
      {
        signerName: spec.signerName,
        usages: usagesForKey(spec.keyPem, spec.usages),
        subject: { commonName: spec.commonName, organizations: spec.organizations },
        ...(spec.dnsNames ? { dnsNames: spec.dnsNames } : {}),
        ...(spec.ipAddresses ? { ipAddresses: spec.ipAddresses } : {}),
        keyPem: spec.keyPem,
      },
      { clock, logger, signal, timeoutMs: CERTIFICATE_WAIT_TIMEOUT_MS, onCreated: (csr) => {
        logger.info('Waiting for the certificate', { csr, signerName: spec.signerName });
        onCreated?.();
      } },
    );
}

/** The pair 10250 listens with before (or without) a serving manager's: tlsCertFile, else the generated one. */
export function initialServingPair(c: Pick<AgentConfig, 'tlsCertFile' | 'tlsPrivateKeyFile'>, pki: Pki): { cert: string; key: string; source: 'file' | 'generated' } {
  if (c.tlsCertFile && c.tlsPrivateKeyFile) return { cert: readFileSync(c.tlsCertFile, 'utf8'), key: readFileSync(c.tlsPrivateKeyFile, 'utf8'), source: 'file' };
  return { cert: pki.serving.certPem, key: pki.serving.keyPem, source: 'generated' };
}

/** Reads the kubeconfig's client certificate (readKubeconfig), then builds the managers the configuration asks for. */
export async function agentCertificateManagers(config: AgentConfig & { certDir?: string }, apiClient: ApiClient | undefined, pki: Pki, d: AgentCertificateDeps): Promise<CertificateManagers> {
  const initial = initialServingPair(config, pki);
  const read = config.kubeconfig ? await readKubeconfig(config.kubeconfig) : undefined;
  const kc = read?.ok ? read.info : undefined;
  const pair = kc?.clientCert();
  const request = apiClient ? (d.bindRequest ?? ((c) => csrRequester(c, d.clock, d.logger)))(apiClient) : undefined;
  const managers = createCertificateManagers(
    {
      nodeName: config.nodeName,
      certDir: certDirOf(config),
      ...(config.kubeconfig ? { kubeconfig: config.kubeconfig } : {}),
      ...(kc ? { kubeconfigClient: { ...(kc.certFile ? { certFile: kc.certFile } : {}), ...(kc.keyFile ? { keyFile: kc.keyFile } : {}), ...(pair?.ok ? { certPem: pair.certPem } : {}) } } : {}),
      rotateCertificates: config.rotateCertificates,
      serverTLSBootstrap: config.serverTLSBootstrap,
      ...(config.tlsCertFile ? { tlsCertFile: config.tlsCertFile } : {}),
      ...(config.tlsPrivateKeyFile ? { tlsPrivateKeyFile: config.tlsPrivateKeyFile } : {}),
    },
    { clock: d.clock, logger: d.logger, ...(request ? { request } : {}), newKeyPem: d.newKeyPem ?? newPrivateKeyPem, ...(d.exit ? { exit: d.exit } : {}), addresses: () => nodeAddresses(config, defaultNodeIP), initialServing: { certPem: initial.cert, source: initial.source } },
  );
  const client = managers.client;
  if (client && apiClient?.setClientCertificate) {
    const current = client.current();
    if (current) apiClient.setClientCertificate(current.certPem, current.keyPem);
    client.onRotate((p) => apiClient.setClientCertificate?.(p.certPem, p.keyPem));
  }
  return managers;
}
