/**
 * Certificate building with node-forge; keys come from node:crypto (native, fast), and so does reading a
 * certificate (X509Certificate): an agent that restarts over existing certificates never loads node-forge.
 */
import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import type Forge from 'node-forge';

let forgeLib: typeof Forge | undefined;
let releaseTimer: NodeJS.Timeout | undefined;
/** How long node-forge stays loaded after its last use: the start-up's certificates are made within it. */
export const FORGE_IDLE_MS = 30_000;

/**
 * node-forge, loaded on first use (about 4 MiB and 0.1-0.2 s of start-up otherwise spent on every start) and let
 * go FORGE_IDLE_MS after its last use: it builds certificates at a first start and at a rotation, both synchronous
 * calls, and kept loaded it held ≈ 1.5 MiB of the agent's heap (its sources and module objects) for the process's
 * life — most of the heap a first start leaves behind.
 */
export function forge(): typeof Forge {
  forgeLib ??= createRequire(import.meta.url)('node-forge') as typeof Forge;
  releaseTimer?.refresh();
  releaseTimer ??= setTimeout(releaseForge, FORGE_IDLE_MS).unref();
  return forgeLib;
}

/** Drops node-forge: our reference and its modules in the CommonJS cache, so the collector can take them. */
export function releaseForge(): void {
  if (releaseTimer) clearTimeout(releaseTimer);
  releaseTimer = undefined;
  forgeLib = undefined;
  const cache = createRequire(import.meta.url).cache;
  for (const k of Object.keys(cache)) if (k.includes(`${sep}node-forge${sep}`)) delete cache[k];
}

export interface KeyAndCert {
  keyPem: string;
  certPem: string;
}

const DAY_MS = 86_400_000;

function newKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}

function serial(): string {
  // Positive, 16 bytes, hex.
  const b = randomBytes(16);
  b[0] = (b[0] ?? 0) & 0x7f;
  return b.toString('hex');
}

function baseCert(keyPem: string, subject: Forge.pki.CertificateField[], nowMs: number, days: number, validity?: LeafValidity) {
  const key = forge().pki.privateKeyFromPem(keyPem) as Forge.pki.rsa.PrivateKey;
  const cert = forge().pki.createCertificate();
  cert.publicKey = forge().pki.rsa.setPublicKey(key.n, key.e);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(validity?.notBeforeMs ?? nowMs - 5 * 60_000);
  cert.validity.notAfter = new Date(validity?.notAfterMs ?? nowMs + days * DAY_MS);
  cert.setSubject(subject);
  return { cert, key };
}

export function createCa(commonName: string, nowMs: number): KeyAndCert {
  const keyPem = newKeyPem();
  const { cert, key } = baseCert(keyPem, [{ name: 'commonName', value: commonName }], nowMs, 3650);
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge().md.sha256.create());
  return { keyPem, certPem: forge().pki.certificateToPem(cert) };
}

export interface LeafSpec {
  commonName: string;
  organizations?: string[];
  usage: 'server' | 'client';
  dnsNames?: string[];
  ips?: string[];
  days: number;
}

export interface LeafValidity {
  notBeforeMs: number;
  notAfterMs: number;
}

export function createLeaf(ca: KeyAndCert, spec: LeafSpec, nowMs: number): KeyAndCert {
  return signLeaf(ca, newKeyPem(), spec, nowMs);
}

/** A leaf for a given RSA key (tests issue certificates with exact validity for a key they hold). */
export function signLeaf(ca: KeyAndCert, keyPem: string, spec: LeafSpec, nowMs: number, validity?: LeafValidity): KeyAndCert {
  const subject: Forge.pki.CertificateField[] = [
    ...(spec.organizations ?? []).map((o) => ({ name: 'organizationName', value: o })),
    { name: 'commonName', value: spec.commonName },
  ];
  const { cert } = baseCert(keyPem, subject, nowMs, spec.days, validity);
  const caCert = forge().pki.certificateFromPem(ca.certPem);
  const caKey = forge().pki.privateKeyFromPem(ca.keyPem);
  cert.setIssuer(caCert.subject.attributes);
  const altNames = [
    ...(spec.dnsNames ?? []).map((value) => ({ type: 2, value })),
    ...(spec.ips ?? []).map((ip) => ({ type: 7, ip })),
  ];
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: spec.usage === 'server', clientAuth: spec.usage === 'client' },
    ...(altNames.length > 0 ? [{ name: 'subjectAltName', altNames }] : []),
  ]);
  cert.sign(caKey, forge().md.sha256.create());
  return { keyPem, certPem: forge().pki.certificateToPem(cert) };
}

export interface CertFacts {
  notAfterMs: number;
  commonName?: string;
  dnsNames: string[];
  ips: string[];
}

export function certFacts(certPem: string): CertFacts {
  const cert = new X509Certificate(certPem);
  // "DNS:localhost, IP Address:127.0.0.1"; a DNS name or address holds no ", ".
  const alt = (cert.subjectAltName ?? '').split(', ').filter((a) => a.length > 0);
  return {
    notAfterMs: Date.parse(cert.validTo),
    commonName: /^CN=(.*)$/m.exec(cert.subject)?.[1],
    dnsNames: alt.filter((a) => a.startsWith('DNS:')).map((a) => a.slice(4)),
    ips: alt.filter((a) => a.startsWith('IP Address:')).map((a) => a.slice(11)),
  };
}

/** True when `certPem` was signed by `caPem`. */
export function issuedBy(certPem: string, caPem: string): boolean {
  try {
    const ca = new X509Certificate(caPem);
    const cert = new X509Certificate(certPem);
    return cert.checkIssued(ca) && cert.verify(ca.publicKey);
  } catch {
    return false;
  }
}
