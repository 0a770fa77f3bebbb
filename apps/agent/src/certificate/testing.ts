/** Test certificates for the certificate managers' tests: a CA and leaves with exact validity for RSA keys. */
import { generateKeyPairSync } from 'node:crypto';
import { createCa, signLeaf, type KeyAndCert } from '../pki/certs.ts';

export function rsaKeyPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}

export interface TestLeaf {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ips?: string[];
  notBeforeMs: number;
  notAfterMs: number;
}

export function testCa(nowMs: number): KeyAndCert {
  return createCa(`test-ca@${Math.floor(nowMs / 1000)}`, nowMs);
}

/** A certificate for `keyPem` signed by `ca`, valid exactly from notBefore to notAfter (whole seconds). */
export function testLeaf(ca: KeyAndCert, keyPem: string, l: TestLeaf): string {
  const spec = { commonName: l.commonName, usage: 'client' as const, days: 1, ...(l.organizations ? { organizations: l.organizations } : {}), ...(l.dnsNames ? { dnsNames: l.dnsNames } : {}), ...(l.ips ? { ips: l.ips } : {}) };
  return signLeaf(ca, keyPem, spec, l.notBeforeMs, { notBeforeMs: l.notBeforeMs, notAfterMs: l.notAfterMs }).certPem;
}
