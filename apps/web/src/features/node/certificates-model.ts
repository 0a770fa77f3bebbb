/**
 * Pure model of the node page's certificates panel: the agent's client and serving certificates
 * (certificates.status: subject, issuer, validity, next rotation, last error) as rows with a tone and the times
 * left. A certificate past its notAfter is red; one whose rotation failed, or with less than a tenth of its
 * lifetime left and no rotation planned before expiry, is amber.
 */
import type { CertificateInfo, CertificatesStatus } from '../../lib/api-types.ts';
import { toMillis } from '../../lib/format.ts';
import type { Tone } from '../pods/pod-summary.ts';

export interface CertificateRow {
  which: 'client' | 'serving';
  title: string;
  /** Where it comes from, in words. */
  source: string;
  subject: string;
  issuer: string;
  notAfter?: string;
  /** "in 3d", "in 42s", "expired 5m ago". */
  expires: string;
  nextRotation?: string;
  rotates: string;
  lastError?: string;
  lastErrorTime?: string;
  rotations?: number;
  tone: Tone;
}

const SOURCE: Record<CertificateInfo['source'], string> = {
  rotating: 'rotated by the certificate manager (CSR to the API server)',
  kubeconfig: "the kubeconfig's client certificate (not rotated)",
  file: 'the configured files (tlsCertFile / tlsPrivateKeyFile, not rotated)',
  generated: 'self-signed at start (no serverTLSBootstrap)',
};

/** A distinguished name as one line: Node's X509Certificate gives one attribute per line. */
export function dnLine(dn: string | undefined): string {
  return dn ? dn.split('\n').map((x) => x.trim()).filter(Boolean).join(', ') : '-';
}

/** "in 3d 4h", "in 42s", "5m ago": the largest two units of |t − now|. */
export function relative(t: string | undefined, now: number): string {
  const ms = toMillis(t);
  if (ms === undefined) return '-';
  const d = ms - now;
  let s = Math.round(Math.abs(d) / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (s >= size || (unit === 's' && parts.length === 0)) {
      parts.push(`${Math.floor(s / size)}${unit}`);
      s %= size;
    }
    if (parts.length === 2) break;
  }
  return d >= 0 ? `in ${parts.join(' ')}` : `${parts.join(' ')} ago`;
}

export function certificateTone(c: CertificateInfo, now: number): Tone {
  const end = toMillis(c.notAfter);
  const start = toMillis(c.notBefore);
  if (end !== undefined && end <= now) return 'bad';
  if (c.lastError) return 'warn';
  const next = toMillis(c.nextRotation);
  if (end !== undefined && start !== undefined && end - now < (end - start) / 10 && (next === undefined || next >= end)) return 'warn';
  return 'ok';
}

function row(which: CertificateRow['which'], c: CertificateInfo, now: number): CertificateRow {
  const end = toMillis(c.notAfter);
  return {
    which,
    title: which === 'client' ? 'Client (to the API server)' : 'Serving (port 10250)',
    source: SOURCE[c.source] ?? c.source,
    subject: dnLine(c.subject),
    issuer: dnLine(c.issuer),
    ...(c.notAfter ? { notAfter: c.notAfter } : {}),
    expires: end === undefined ? '-' : end <= now ? `expired ${relative(c.notAfter, now)}` : relative(c.notAfter, now),
    ...(c.nextRotation ? { nextRotation: c.nextRotation } : {}),
    rotates: c.nextRotation ? relative(c.nextRotation, now) : c.source === 'rotating' ? 'not planned yet' : 'never (not rotated)',
    ...(c.lastError ? { lastError: c.lastError } : {}),
    ...(c.lastErrorTime ? { lastErrorTime: c.lastErrorTime } : {}),
    ...(c.rotations !== undefined ? { rotations: c.rotations } : {}),
    tone: certificateTone(c, now),
  };
}

/** Client first (API-server mode only), then serving. */
export function certificateRows(s: CertificatesStatus | null | undefined, now: number): CertificateRow[] {
  if (!s) return [];
  return [...(s.client ? [row('client', s.client, now)] : []), row('serving', s.serving, now)];
}
