/**
 * TLS bootstrap, as the kubelet's pkg/kubelet/certificate/bootstrap LoadClientCert: when --kubeconfig is missing,
 * unreadable, without a client certificate, or its certificate expired / does not match its key, connect with
 * --bootstrap-kubeconfig (a bootstrap token), request a client certificate (signer
 * kubernetes.io/kube-apiserver-client-kubelet, O=system:nodes CN=system:node:<name>, usages digital signature +
 * client auth (+ key encipherment for RSA keys)) under the CSR name node-csr-<digest of key, subject, usages>, wait
 * for it to be approved and issued, store it as <cert-dir>/kubelet-client-<stamp>.pem + kubelet-client-current.pem
 * (store.ts), and write the kubeconfig pointing at that file. The key is reused from the current pair, else from
 * <cert-dir>/kubelet-client.key.tmp (kept until a certificate is issued), else a new ECDSA P-256 key.
 * Unlike the kubelet (which exits and lets systemd restart it), a denied / failed request, a refused token or an
 * unreachable API server is logged and retried here with exponential backoff.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { createApiClientFromKubeconfig, readKubeconfig, type ApiClient, type KubeconfigInfo } from '@nodelet/core/apiclient';
import type { Clock, Logger } from '@nodelet/core/util';
import { CsrError, KUBE_APISERVER_CLIENT_KUBELET_SIGNER, requestCertificate } from './csr-client.ts';
import { digestedCsrName, isRsaKey, newPrivateKeyPem } from './csr-pem.ts';
import { CertificateStore, loadPair } from './store.ts';

export interface BootstrapOptions {
  kubeconfigPath: string;
  bootstrapKubeconfigPath: string;
  certDir: string;
  nodeName: string;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  /** Delay after a failed attempt, doubling (default 1 s up to 64 s). */
  backoff?: { initialMs: number; maxMs: number };
}

/** A bootstrap kubeconfig that cannot be used at all: a configuration error, not retried. */
export class BootstrapConfigError extends Error {
  override readonly name = 'BootstrapConfigError';
}

export const TMP_KEY_FILE = 'kubelet-client.key.tmp';

/** 'valid' when the kubeconfig was usable as it is, 'bootstrapped' when a new certificate and kubeconfig were written. */
export async function loadClientCert(o: BootstrapOptions): Promise<'valid' | 'bootstrapped'> {
  const log = o.logger;
  const existing = await clientConfigProblem(o.kubeconfigPath, o.clock.now());
  if (existing === undefined) {
    log.info('kubeconfig exists and is valid, skipping bootstrap', { path: o.kubeconfigPath });
    return 'valid';
  }
  if (existing) log.error(existing);
  log.info('using the bootstrap kubeconfig to request a client certificate', { bootstrapKubeconfig: o.bootstrapKubeconfigPath, certDir: o.certDir });
  const boot = await readKubeconfig(o.bootstrapKubeconfigPath);
  if (!boot.ok) throw new BootstrapConfigError(`--bootstrap-kubeconfig: ${boot.reason}`);
  const connected = await createApiClientFromKubeconfig(o.bootstrapKubeconfigPath, { clock: o.clock });
  if (!connected.ok) throw new BootstrapConfigError(`--bootstrap-kubeconfig: ${connected.reason}`);
  const client = connected.client;
  try {
    const store = new CertificateStore({ pairNamePrefix: 'kubelet-client', certDirectory: o.certDir, now: () => o.clock.now() });
    const keyPem = reusableKey(store, o) ?? loadOrGenerateKey(join(o.certDir, TMP_KEY_FILE));
    const { certPem, csrName } = await requestWithBackoff(client, keyPem, o);
    const pair = store.update(certPem, keyPem);
    rmSync(join(o.certDir, TMP_KEY_FILE), { force: true });
    writeKubeconfig(boot.info, o.kubeconfigPath, store.currentPath);
    log.info('client certificate bootstrapped', { csr: csrName, certificate: pair.files[0], notAfter: pair.leaf.validTo, kubeconfig: o.kubeconfigPath });
    return 'bootstrapped';
  } finally {
    client.close();
  }
}

/** isClientConfigStillValid: undefined when usable; '' when absent; otherwise why not (naming the files). */
export async function clientConfigProblem(path: string, nowMs: number): Promise<string | undefined> {
  if (!existsSync(path)) return '';
  const read = await readKubeconfig(path);
  if (!read.ok) return `unable to read the existing client config ${path}: ${read.reason}`;
  const cc = read.info.clientCert();
  if (!cc) return `the existing client config ${path} has no client certificate`;
  if (!cc.ok) return `unable to load the TLS configuration of the existing client config ${path}: ${cc.reason}`;
  const { certFile, keyFile } = read.info;
  if (certFile && keyFile) {
    try {
      loadPair(certFile, keyFile);
    } catch (err) {
      return `unable to load the TLS configuration of the existing client config ${path}: ${(err as Error).message}`;
    }
  }
  for (const block of cc.certPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(block);
    } catch (err) {
      return `unable to load TLS certificates from the existing client config ${path}: ${(err as Error).message}`;
    }
    if (Date.parse(cert.validTo) < nowMs) return `part of the existing client certificate in ${path} is expired: ${cert.validTo}`;
  }
  return undefined;
}

function reusableKey(store: CertificateStore, o: BootstrapOptions): string | undefined {
  try {
    return store.current().keyPem;
  } catch (err) {
    if ((err as Error).name !== 'NoCertKeyError') o.logger.warn('the current client certificate is unusable; requesting a new one', { err: (err as Error).message });
    return undefined;
  }
}

/** keyutil.LoadOrGenerateKeyFile: the key in `path` when it parses, else a new ECDSA P-256 key written there (0600). */
function loadOrGenerateKey(path: string): string {
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    try {
      isRsaKey(text);
      return text;
    } catch {
      // unparseable: replaced below
    }
  }
  const keyPem = newPrivateKeyPem();
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  writeFileSync(path, keyPem, { mode: 0o600 });
  return keyPem;
}

async function requestWithBackoff(client: ApiClient, keyPem: string, o: BootstrapOptions): Promise<{ certPem: string; csrName: string }> {
  const log = o.logger;
  const subject = { commonName: `system:node:${o.nodeName}`, organizations: ['system:nodes'] };
  const usages = ['digital signature', 'client auth', ...(isRsaKey(keyPem) ? ['key encipherment'] : [])];
  const csrName = digestedCsrName(keyPem, subject, usages);
  const { initialMs, maxMs } = o.backoff ?? { initialMs: 1000, maxMs: 64_000 };
  let delay = initialMs;
  for (;;) {
    try {
      const certPem = await requestCertificate(
        client,
        { signerName: KUBE_APISERVER_CLIENT_KUBELET_SIGNER, usages, subject, keyPem, name: csrName },
        {
          clock: o.clock,
          logger: log,
          signal: o.signal,
          onCreated: (csr) => log.info('waiting for the client certificate: the certificate signing request must be approved and issued', { csr, signer: KUBE_APISERVER_CLIENT_KUBELET_SIGNER }),
        },
      );
      return { certPem, csrName };
    } catch (err) {
      if (o.signal?.aborted) throw err;
      log.error(failureMessage(err), { csr: csrName, err: (err as Error).message, retryInMs: delay });
      await o.clock.sleep(delay, o.signal);
      delay = Math.min(delay * 2, maxMs);
    }
  }
}

function failureMessage(err: unknown): string {
  if (!(err instanceof CsrError)) return 'client certificate request failed, retrying';
  if (err.kind === 'Denied') return 'certificate signing request denied, retrying (delete it to request again)';
  if (err.kind === 'Failed') return 'certificate signing request failed, retrying';
  if (err.status === 401) return 'the API server refused the bootstrap credentials (401 Unauthorized): check the token in --bootstrap-kubeconfig; retrying';
  if (err.status === 403) return 'the bootstrap credentials may not create certificate signing requests (403 Forbidden); retrying';
  if (err.kind === 'Api' && err.status === 0) return 'the API server cannot be reached, retrying';
  return 'client certificate request failed, retrying';
}

/** writeKubeconfigFromBootstrapping: the bootstrap cluster, the new certificate and key (one file), context default-context. */
function writeKubeconfig(boot: KubeconfigInfo, path: string, pemPath: string): void {
  const cluster: Record<string, unknown> = { server: boot.server };
  if (boot.caFile) cluster['certificate-authority'] = boot.caFile;
  else if (boot.caData) cluster['certificate-authority-data'] = Buffer.from(boot.caData).toString('base64');
  if (boot.insecureSkipTlsVerify) cluster['insecure-skip-tls-verify'] = true;
  const text = stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'default-cluster', cluster }],
    contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', namespace: 'default', user: 'default-auth' } }],
    'current-context': 'default-context',
    preferences: {},
    users: [{ name: 'default-auth', user: { 'client-certificate': pemPath, 'client-key': pemPath } }],
  });
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}
