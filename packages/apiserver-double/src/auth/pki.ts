/**
 * A throwaway PKI for the double: a cluster CA (like kubeadm's /etc/kubernetes/pki/ca.crt), the serving cert,
 * client certs for nodes (CN system:node:<name>, O system:nodes) and the apiserver's kubelet client
 * (CN kube-apiserver-kubelet-client). Certificates are built with node-forge and signed with node's crypto.
 * RSA key generation is slow (~0.5 s a key on this machine), so a process keeps one key per role ('ca',
 * 'server', 'client') and reuses it across doubles and certs: fine for a test double, never for a cluster.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import forge from 'node-forge';

export interface KeyPair {
  cert: string;
  key: string;
}

export interface CertAuthority extends KeyPair {
  issue(spec: CertSpec): KeyPair;
}

export interface CertSpec {
  commonName: string;
  organizations?: string[];
  usage: 'client' | 'server' | 'both';
  dnsNames?: string[];
  ips?: string[];
  /** Validity in days (default 365). */
  days?: number;
}

interface Key {
  pem: string;
  publicKey: forge.pki.rsa.PublicKey;
}

const keys = new Map<string, Key>();

function keyFor(role: 'ca' | 'server' | 'client'): Key {
  const cached = keys.get(role);
  if (cached) return cached;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
  const key = { pem, publicKey: forge.pki.rsa.setPublicKey(forgeKey.n, forgeKey.e) };
  keys.set(role, key);
  return key;
}

/**
 * Sign with node's crypto (forge's pure-JS RSA takes ~0.2 s a signature). `editTbs` may replace parts of the
 * TBSCertificate forge cannot build itself (the CSR signer puts in a request's subject and ECDSA public key).
 */
export function signCert(cert: forge.pki.Certificate, signerPem: string, editTbs?: (tbs: forge.asn1.Asn1) => void): void {
  const oid = forge.pki.oids.sha256WithRSAEncryption!;
  cert.signatureOid = oid;
  cert.siginfo.algorithmOid = oid;
  cert.md = forge.md.sha256.create();
  const pki = forge.pki as unknown as { getTBSCertificate(c: forge.pki.Certificate): forge.asn1.Asn1 };
  const tbs = pki.getTBSCertificate(cert);
  editTbs?.(tbs);
  cert.tbsCertificate = tbs;
  const der = Buffer.from(forge.asn1.toDer(tbs).getBytes(), 'binary');
  cert.signature = sign('sha256', der, signerPem).toString('binary');
}

function baseCert(publicKey: forge.pki.PublicKey, days: number): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + days * 86_400_000);
  return cert;
}

export function createCertAuthority(commonName = 'nodelet-apiserver-double-ca'): CertAuthority {
  const k = keyFor('ca');
  const ca = baseCert(k.publicKey, 3650);
  const subject = [{ name: 'commonName', value: commonName }];
  ca.setSubject(subject);
  ca.setIssuer(subject);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  signCert(ca, k.pem);
  const caPem = forge.pki.certificateToPem(ca);
  return {
    cert: caPem,
    key: k.pem,
    issue(spec) {
      const leafKey = keyFor(spec.usage === 'client' ? 'client' : 'server');
      const cert = baseCert(leafKey.publicKey, spec.days ?? 365);
      const attrs: forge.pki.CertificateField[] = [
        ...(spec.organizations ?? []).map((o) => ({ name: 'organizationName', value: o })),
        { name: 'commonName', value: spec.commonName },
      ];
      cert.setSubject(attrs);
      cert.setIssuer(ca.subject.attributes);
      const altNames = [
        ...(spec.dnsNames ?? []).map((value) => ({ type: 2, value })),
        ...(spec.ips ?? []).map((ip) => ({ type: 7, ip })),
      ];
      cert.setExtensions([
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        {
          name: 'extKeyUsage',
          serverAuth: spec.usage !== 'client',
          clientAuth: spec.usage !== 'server',
        },
        ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
      ]);
      signCert(cert, k.pem);
      return { cert: forge.pki.certificateToPem(cert), key: leafKey.pem };
    },
  };
}
