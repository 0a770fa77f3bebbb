/**
 * The agent's two certificate managers, as the kubelet builds them (pkg/kubelet/certificate/kubelet.go):
 * - client (rotateCertificates, API-server mode): store `kubelet-client` in the cert dir (fallback: the
 *   kubeconfig's client-certificate / client-key files), template O=system:nodes CN=system:node:<name>, signer
 *   kubernetes.io/kube-apiserver-client-kubelet; each issued pair goes to the API client, which reconnects with it;
 * - serving (serverTLSBootstrap): store `kubelet-server` (fallback: tlsCertFile / tlsPrivateKeyFile), the
 *   node-address template of serving.ts (re-checked every second), signer kubernetes.io/kubelet-serving; each
 *   issued pair goes to the 10250 listener, which refuses handshakes until the first one ("no serving certificate
 *   available for the kubelet"), as the kubelet's GetCertificate;
 * - with the client manager, the exit watchdog of the kubelet's rotating transport (exit-after.ts).
 * status() is what the console shows (tRPC certificates); metricsText() is appended to /metrics.
 */
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import type { Clock, Logger, TimerHandle } from '@nodelet/core/util';
import { CertificateManager } from './manager.ts';
import type { CertificateStatus, RequestCertificate } from './manager-deps.ts';
import { createCertificateMetrics } from './manager-metrics.ts';
import { watchClientCertificate } from './exit-after.ts';
import { CertificateStore } from './store.ts';
import { KUBE_APISERVER_CLIENT_KUBELET_SIGNER, KUBELET_SERVING_SIGNER } from './csr-client.ts';
import { CLIENT_USAGES, nodeTemplate, SERVING_USAGES, servingTemplate, type NodeAddress } from './serving.ts';

export interface CertificateInfo extends Partial<CertificateStatus> {
  /** rotating: a manager keeps it fresh; otherwise where the fixed pair comes from. */
  source: 'rotating' | 'kubeconfig' | 'file' | 'generated';
  subject?: string;
  issuer?: string;
  notBefore?: string;
  notAfter?: string;
}

export interface CertificatesStatus {
  /** API-server mode only. */
  client?: CertificateInfo;
  serving: CertificateInfo;
}

export interface ManagersConfig {
  nodeName: string;
  certDir: string;
  kubeconfig?: string;
  /** The kubeconfig's client certificate: its files (the client store's fallback) and PEM (shown when not rotating). */
  kubeconfigClient?: { certFile?: string; keyFile?: string; certPem?: string };
  rotateCertificates: boolean;
  serverTLSBootstrap: boolean;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
}

export interface ManagersDeps {
  clock: Clock;
  logger: Logger;
  /** The CSR client bound to the API client; without one (standalone) no manager runs. */
  request?: RequestCertificate;
  /** The node's addresses as its status reports them (InternalIP, Hostname). */
  addresses: () => NodeAddress[];
  /** The serving pair 10250 listens with without serverTLSBootstrap (the configured or generated one). */
  initialServing: { certPem: string; source: 'file' | 'generated' };
  newKeyPem: () => string;
  /** Ends the process (exit-after.ts: no valid client certificate for 5 minutes); without it no watchdog runs. */
  exit?: (code: number) => void;
}

export interface CertificateManagers {
  client?: CertificateManager;
  serving?: CertificateManager;
  /** The serving manager's pair (undefined without one: 10250 refuses handshakes until it is issued). */
  servingPair(): { cert: string; key: string } | undefined;
  /**
   * The 10250 listener follows the serving manager: each issued pair, and none once the pair in use expires with
   * no successor (the kubelet's GetCertificate: Current() is nil for an expired pair, and handshakes fail).
   */
  followServing(set: (pair: { cert: string; key: string } | undefined) => void): void;
  start(): void;
  stop(): void;
  status(): CertificatesStatus;
  metricsText(): Promise<string>;
}

export function createCertificateManagers(c: ManagersConfig, d: ManagersDeps): CertificateManagers {
  const metrics = createCertificateMetrics();
  const log = d.logger.child('certificate-manager');
  const kcc = c.kubeconfigClient ?? {};
  const clientFiles = kcc.certFile && kcc.keyFile ? { certFile: kcc.certFile, keyFile: kcc.keyFile } : {};
  let client: CertificateManager | undefined;
  let serving: CertificateManager | undefined;
  if (d.request && c.kubeconfig && c.rotateCertificates) {
    client = new CertificateManager({
      name: KUBE_APISERVER_CLIENT_KUBELET_SIGNER,
      signerName: KUBE_APISERVER_CLIENT_KUBELET_SIGNER,
      usages: CLIENT_USAGES,
      store: new CertificateStore({ pairNamePrefix: 'kubelet-client', certDirectory: c.certDir, ...clientFiles, now: () => d.clock.now() }),
      template: () => nodeTemplate(c.nodeName),
      request: d.request,
      clock: d.clock,
      logger: log,
      onRenewError: () => metrics.clientRenewErrors(),
      newKeyPem: d.newKeyPem,
    });
    metrics.track('client', client);
  }
  if (d.request && c.kubeconfig && c.serverTLSBootstrap) {
    const fallback = c.tlsCertFile && c.tlsPrivateKeyFile ? { certFile: c.tlsCertFile, keyFile: c.tlsPrivateKeyFile } : {};
    serving = new CertificateManager({
      name: KUBELET_SERVING_SIGNER,
      signerName: KUBELET_SERVING_SIGNER,
      usages: SERVING_USAGES,
      store: new CertificateStore({ pairNamePrefix: 'kubelet-server', certDirectory: c.certDir, ...fallback, now: () => d.clock.now() }),
      template: () => servingTemplate(c.nodeName, d.addresses()),
      request: d.request,
      clock: d.clock,
      logger: log,
      onRenewError: () => metrics.serverRenewErrors(),
      onRotationAge: (s) => metrics.serverRotationAge(s),
      newKeyPem: d.newKeyPem,
      dynamicTemplate: true,
    });
    metrics.track('server', serving);
  }
  let stopWatchdog: (() => void) | undefined;
  let expiry: TimerHandle | undefined;
  const watchExpiry = (notAfter: string, set: (pair: undefined) => void) => {
    expiry?.cancel();
    expiry = d.clock.setTimeout(() => {
      if (!serving?.current()) set(undefined);
    }, Math.max(0, Date.parse(notAfter) - d.clock.now() + 1));
  };
  const fixedClient = (): CertificateInfo | undefined => {
    if (!c.kubeconfig) return undefined;
    try {
      return kcc.certPem ? { source: 'kubeconfig', ...describe(new X509Certificate(kcc.certPem)) } : { source: 'kubeconfig' };
    } catch (err) {
      return { source: 'kubeconfig', lastError: `client certificate unreadable: ${(err as Error).message}` };
    }
  };
  const fixedServing = (): CertificateInfo => {
    try {
      return { source: d.initialServing.source, ...describe(new X509Certificate(d.initialServing.certPem)) };
    } catch {
      return { source: d.initialServing.source };
    }
  };
  return {
    client,
    serving,
    servingPair() {
      const p = serving?.current();
      return p ? { cert: p.certPem, key: p.keyPem } : undefined;
    },
    followServing(set) {
      const p = serving?.current();
      if (p) watchExpiry(p.leaf.validTo, set);
      serving?.onRotate((next) => {
        set({ cert: next.certPem, key: next.keyPem });
        watchExpiry(next.leaf.validTo, set);
      });
    },
    start() {
      if (client && d.exit && !stopWatchdog) stopWatchdog = watchClientCertificate({ manager: client, clock: d.clock, logger: log, exit: d.exit });
      client?.start();
      serving?.start();
    },
    stop() {
      stopWatchdog?.();
      expiry?.cancel();
      client?.stop();
      serving?.stop();
    },
    status() {
      const managed = (m: CertificateManager): CertificateInfo => ({ source: 'rotating', ...m.status() });
      const clientInfo = client ? managed(client) : fixedClient();
      const servingInfo = serving ? managed(serving) : fixedServing();
      return { ...(clientInfo ? { client: clientInfo } : {}), serving: servingInfo };
    },
    metricsText: () => metrics.registry.metrics(),
  };
}

function describe(cert: X509Certificate): Pick<CertificateInfo, 'subject' | 'issuer' | 'notBefore' | 'notAfter'> {
  const line = (dn: string) => dn.split('\n').filter((l) => l).join(', ');
  return { subject: line(cert.subject), issuer: line(cert.issuer), notBefore: new Date(cert.validFrom).toISOString(), notAfter: new Date(cert.validTo).toISOString() };
}

/** --cert-dir (the kubelet's default <root-dir>/pki). */
export function certDirOf(c: { rootDir: string; certDir?: string }): string {
  return c.certDir ?? join(c.rootDir, 'pki');
}
