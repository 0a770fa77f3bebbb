/**
 * The kube-controller-manager's CSR controllers, run inside the double on every CSR change:
 * - csrsigning: an Approved, not Failed, not yet issued request for kubernetes.io/kube-apiserver-client-kubelet,
 *   kubernetes.io/kubelet-serving or kubernetes.io/kube-apiserver-client is checked against its signer's rules
 *   (failing → a Failed condition, reason SignerValidationFailure) and signed by the double's CA into
 *   status.certificate: TTL = --cluster-signing-duration (or spec.expirationSeconds when shorter, at least 10 min),
 *   notBefore backdated 5 min, notAfter = now + TTL for TTLs under 8 h (else notBefore + TTL), capped at the CA's.
 *   Other signers are left alone (no controller signs them), as upstream.
 * - csrapproving (opt-in `autoApprove`): approves kube-apiserver-client-kubelet requests that are valid kubelet
 *   client requests from the node itself (selfnodeclient) or from a bootstrapper (nodeclient), reason AutoApproved.
 */
import { randomBytes } from 'node:crypto';
import forge from 'node-forge';
import type { Clock } from '@nodelet/core/util';
import { signCert, type CertAuthority } from '../auth/pki.ts';
import type { KubeObject } from '../resources.ts';
import { derNode, parseCsr, type ParsedCsr } from './csr-parse.ts';
import { kubeTime, type Registry } from './registry.ts';

export interface CsrControllerOptions {
  /** --cluster-signing-duration (default 1 year). */
  clusterSigningDurationMs?: number;
  /** How far notBefore is set back (default 5 min, the signer's constant). */
  backdateMs?: number;
  /** Run the csrapproving controller (default false: a test or `kubectl certificate approve` approves). */
  autoApprove?: boolean;
}

const CLIENT_KUBELET = 'kubernetes.io/kube-apiserver-client-kubelet';
const SERVING = 'kubernetes.io/kubelet-serving';
const APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
const YEAR_MS = 365 * 86_400_000;
const SHORT_MS = 8 * 3_600_000;
const same = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The signer rules of pkg/apis/certificates/v1/helpers.go (kubelet client / serving) and the apiserver-client usages. */
export function signerValidationError(signer: string, req: ParsedCsr, usages: string[]): string | undefined {
  const set = [...new Set(usages)];
  if (signer === APISERVER_CLIENT) {
    const bad = set.find((u) => !['digital signature', 'key encipherment', 'client auth'].includes(u));
    if (bad) return `invalid usage for client certificate: ${bad}`;
    return set.includes('client auth') ? undefined : 'invalid usage for client certificate: missing required client auth';
  }
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (signer === CLIENT_KUBELET) {
    if (req.dnsNames.length) return 'DNS subjectAltNames are not allowed';
    if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
    if (req.ipAddresses.length) return 'IP subjectAltNames are not allowed';
    if (req.uris.length) return 'URI subjectAltNames are not allowed';
    if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
    if (!same(set, ['digital signature', 'key encipherment', 'client auth']) && !same(set, ['digital signature', 'client auth']))
      return 'usages did not match [client auth digital signature key encipherment]';
    return undefined;
  }
  if (!req.dnsNames.length && !req.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!same(set, ['digital signature', 'key encipherment', 'server auth']) && !same(set, ['digital signature', 'server auth']))
    return 'usages did not match [digital signature key encipherment server auth]';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** Starts both controllers on the registry's change stream; returns the unsubscribe function. */
export function startCsrControllers(registry: Registry, ca: CertAuthority, clock: Clock, opts: CsrControllerOptions = {}): () => void {
  const r = registry.resource('certificates.k8s.io', 'certificatesigningrequests');
  const caCert = forge.pki.certificateFromPem(ca.cert);
  const condition = (type: string, reason: string, message: string) => {
    const now = kubeTime(clock.now());
    return { type, status: 'True', reason, message, lastUpdateTime: now, lastTransitionTime: now };
  };
  const handle = (name: string) => {
    const csr = registry.tryGet(r, undefined, name);
    if (!csr || csr.status?.certificate) return;
    const types = new Set<string>((csr.status?.conditions ?? []).map((c: { type: string }) => c.type));
    if (types.has('Denied') || types.has('Failed')) return;
    const signer = String(csr.spec?.signerName ?? '');
    if (![CLIENT_KUBELET, SERVING, APISERVER_CLIENT].includes(signer)) return;
    const parsed = parseCsr(Buffer.from(String(csr.spec.request ?? ''), 'base64').toString('utf8'));
    if (!parsed.ok) return;
    const usages: string[] = csr.spec.usages ?? [];
    if (!types.has('Approved')) {
      const message = opts.autoApprove ? approvalMessage(csr, parsed.csr, usages) : undefined;
      if (message) write(csr, 'approval', [...(csr.status?.conditions ?? []), condition('Approved', 'AutoApproved', message)]);
      return;
    }
    const invalid = signerValidationError(signer, parsed.csr, usages);
    if (invalid) return write(csr, 'status', [...(csr.status?.conditions ?? []), condition('Failed', 'SignerValidationFailure', invalid)]);
    const pem = issue(parsed.csr, usages, csr.spec.expirationSeconds);
    registry.update(r, undefined, name, { ...csr, status: { ...csr.status, certificate: Buffer.from(pem).toString('base64') } }, 'status');
  };
  const write = (csr: KubeObject, sub: 'status' | 'approval', conditions: unknown[]) =>
    registry.update(r, undefined, csr.metadata.name, { ...csr, status: { ...csr.status, conditions } }, sub);

  const issue = (req: ParsedCsr, usages: string[], expirationSeconds?: number): string => {
    const now = clock.now();
    const ttl = signingTtl(opts.clusterSigningDurationMs ?? YEAR_MS, expirationSeconds);
    const notBefore = now - (opts.backdateMs ?? 300_000);
    const notAfter = Math.min(ttl < SHORT_MS ? now + ttl : notBefore + ttl, caCert.validity.notAfter.getTime());
    const cert = forge.pki.createCertificate();
    cert.publicKey = caCert.publicKey; // a placeholder: the request's key replaces it in the TBS below
    cert.serialNumber = '01' + randomBytes(15).toString('hex');
    cert.validity.notBefore = new Date(notBefore);
    cert.validity.notAfter = new Date(notAfter);
    cert.setIssuer(caCert.subject.attributes);
    cert.setExtensions(extensions(req, usages, caCert));
    signCert(cert, ca.key, (tbs) => {
      const parts = tbs.value as forge.asn1.Asn1[];
      parts[5] = derNode(req.subjectDer);
      parts[6] = derNode(req.spkiDer);
    });
    return forge.pki.certificateToPem(cert).replace(/\r\n/g, '\n');
  };

  const pending = new Set<string>();
  const unsubscribe = registry.raw.subscribe((e) => {
    if (e.resource !== 'certificatesigningrequests.certificates.k8s.io' || e.type === 'DELETED') return;
    const name = String(e.object.metadata.name);
    if (pending.has(name)) return;
    pending.add(name);
    // After the write that triggered us has answered, as a controller's informer sees it.
    queueMicrotask(() => {
      pending.delete(name);
      try {
        handle(name);
      } catch {
        // A write that lost a race with a client's update: the next change event runs the controllers again.
      }
    });
  });
  return unsubscribe;
}

/** The signer's duration(): the requested expirationSeconds when shorter than the default, never under 10 min. */
function signingTtl(defaultMs: number, expirationSeconds?: number): number {
  if (expirationSeconds === undefined || expirationSeconds === null) return defaultMs;
  const requested = Number(expirationSeconds) * 1000;
  return requested > defaultMs ? defaultMs : Math.max(requested, 600_000);
}

/** csrapproving's recognizers: selfnodeclient (the node renews its own identity) and nodeclient (a bootstrapper). */
function approvalMessage(csr: KubeObject, req: ParsedCsr, usages: string[]): string | undefined {
  if (csr.spec.signerName !== CLIENT_KUBELET || signerValidationError(CLIENT_KUBELET, req, usages)) return undefined;
  const groups: string[] = csr.spec.groups ?? [];
  if (csr.spec.username === req.commonName && groups.includes('system:nodes')) return 'Auto approving self kubelet client certificate after SubjectAccessReview.';
  if (groups.includes('system:bootstrappers')) return 'Auto approving kubelet client certificate after SubjectAccessReview.';
  return undefined;
}

/** Key usages / extended key usages as the signing policy maps them, the request's SANs, the CA's key id. */
function extensions(req: ParsedCsr, usages: string[], ca: forge.pki.Certificate): unknown[] {
  const ku: Record<string, boolean> = {};
  const eku: Record<string, boolean> = {};
  const KU: Record<string, string> = { signing: 'digitalSignature', 'digital signature': 'digitalSignature', 'content commitment': 'nonRepudiation', 'key encipherment': 'keyEncipherment', 'key agreement': 'keyAgreement', 'data encipherment': 'dataEncipherment', 'cert sign': 'keyCertSign', 'crl sign': 'cRLSign', 'encipher only': 'encipherOnly', 'decipher only': 'decipherOnly' };
  const EKU: Record<string, string> = { 'server auth': 'serverAuth', 'client auth': 'clientAuth', 'code signing': 'codeSigning', 'email protection': 'emailProtection', 's/mime': 'emailProtection', timestamping: 'timeStamping' };
  for (const u of usages) {
    if (KU[u]) ku[KU[u]] = true;
    if (EKU[u]) eku[EKU[u]] = true;
  }
  const altNames = [
    ...req.dnsNames.map((value) => ({ type: 2, value })),
    ...req.ipAddresses.map((ip) => ({ type: 7, ip })),
    ...req.emailAddresses.map((value) => ({ type: 1, value })),
    ...req.uris.map((value) => ({ type: 6, value })),
  ];
  return [
    ...(Object.keys(ku).length ? [{ name: 'keyUsage', critical: true, ...ku }] : []),
    ...(Object.keys(eku).length ? [{ name: 'extKeyUsage', ...eku }] : []),
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
    ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
  ];
}
