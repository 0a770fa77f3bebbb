/**
 * What a certificate manager (manager.ts) is built with and reports: its signer, usages, store and template, the
 * CSR request it makes (RequestCertificate, csr-client.ts bound to the API client), its clock, logger, jitter and
 * metric hooks; and the status it shows (CertificateStatus).
 */
import type { Clock, Logger } from '@nodelet/core/util';
import type { CertificateStore } from './store.ts';
import type { CertificateTemplate } from './template.ts';

export interface CertificateRequestSpec extends CertificateTemplate {
  signerName: string;
  usages: string[];
  keyPem: string;
}

/**
 * Creates a CSR and waits for its certificate (csr-client.ts's requestCertificate, bound to the API client);
 * `onCreated` once the CSR exists (the manager's setLastRequest).
 */
export type RequestCertificate = (spec: CertificateRequestSpec, signal: AbortSignal, onCreated?: () => void) => Promise<string>;

export interface CertificateStatus {
  subject?: string;
  issuer?: string;
  notBefore?: string;
  notAfter?: string;
  /** When the manager next rotates (undefined while stopped or waiting for a template). */
  nextRotation?: string;
  lastError?: string;
  lastErrorTime?: string;
  /** Renewal errors counted (the renew_errors metric). */
  renewErrors: number;
  rotations: number;
}

export interface CertificateManagerDeps {
  /** Log name (the signer name, as the kubelet's). */
  name: string;
  signerName: string;
  usages: string[];
  store: CertificateStore;
  /** undefined while there is nothing to request for (the serving certificate waits for a node address). */
  template: () => CertificateTemplate | undefined;
  request: RequestCertificate;
  clock: Clock;
  logger: Logger;
  /** [0, 1) source for the jitter (default Math.random). */
  random?: () => number;
  /** Each failed attempt (the *_renew_errors counter). */
  onRenewError?: () => void;
  /** Seconds the previous pair lived when replaced (certificate_manager_server_rotation_seconds). */
  onRotationAge?: (seconds: number) => void;
  /** A new private key (PEM) per request: csr-pem.ts's newPrivateKeyPem, ECDSA P-256 as client-go's generateCSR. */
  newKeyPem: () => string;
  /** Config.GetTemplate (the serving certificate): the template is re-checked every second (templateChanged). */
  dynamicTemplate?: boolean;
}
