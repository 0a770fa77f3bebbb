/**
 * First start without certificates: create <root-dir>/pki/ with a local CA, the kubelet serving certificate and
 * a console client certificate. Later starts reuse them; a leaf that is expiring, not issued by the CA, or (for
 * the serving cert) missing the node name is re-issued.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@nodelet/core/util';
import { certFacts, createCa, createLeaf, issuedBy, type KeyAndCert, type LeafSpec } from './certs.ts';

export const CONSOLE_CN = 'system:nodelet-console';
export const CONSOLE_ORG = 'system:masters';
const RENEW_BEFORE_MS = 7 * 86_400_000;

export interface PkiPaths {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  consoleCert: string;
  consoleKey: string;
}

export interface Pki {
  paths: PkiPaths;
  ca: KeyAndCert;
  serving: KeyAndCert;
  console: KeyAndCert;
  /** Files written by this call. */
  created: string[];
}

export function pkiPaths(rootDir: string): PkiPaths {
  const dir = join(rootDir, 'pki');
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    servingCert: join(dir, 'kubelet.crt'),
    servingKey: join(dir, 'kubelet.key'),
    consoleCert: join(dir, 'console.crt'),
    consoleKey: join(dir, 'console.key'),
  };
}

export function ensurePki(rootDir: string, nodeName: string, logger: Logger, nowMs = Date.now()): Pki {
  const paths = pkiPaths(rootDir);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const created: string[] = [];
  let ca = readPair(paths.caCert, paths.caKey);
  if (!ca || certFacts(ca.certPem).notAfterMs - nowMs < RENEW_BEFORE_MS) {
    ca = createCa(`nodelet-ca@${Math.floor(nowMs / 1000)}`, nowMs);
    writePair(paths.caCert, paths.caKey, ca, created);
    logger.info('created a local CA', { cert: paths.caCert });
  }
  const servingSpec: LeafSpec = {
    commonName: nodeName,
    usage: 'server',
    dnsNames: [...new Set(['localhost', nodeName])],
    ips: ['127.0.0.1', '::1'],
    days: 365,
  };
  const serving = ensureLeaf(ca, paths.servingCert, paths.servingKey, servingSpec, nowMs, created, (f) =>
    f.dnsNames.includes(nodeName),
  );
  const consoleSpec: LeafSpec = { commonName: CONSOLE_CN, organizations: [CONSOLE_ORG], usage: 'client', days: 365 };
  const consolePair = ensureLeaf(ca, paths.consoleCert, paths.consoleKey, consoleSpec, nowMs, created, () => true);
  if (created.length > 0) logger.info('wrote certificates', { dir: paths.dir, files: created });
  else logger.info('reusing certificates', { dir: paths.dir });
  return { paths, ca, serving, console: consolePair, created };
}

function ensureLeaf(
  ca: KeyAndCert,
  certPath: string,
  keyPath: string,
  spec: LeafSpec,
  nowMs: number,
  created: string[],
  fits: (f: ReturnType<typeof certFacts>) => boolean,
): KeyAndCert {
  const existing = readPair(certPath, keyPath);
  if (existing && issuedBy(existing.certPem, ca.certPem)) {
    const facts = certFacts(existing.certPem);
    if (facts.notAfterMs - nowMs >= RENEW_BEFORE_MS && fits(facts)) return existing;
  }
  const pair = createLeaf(ca, spec, nowMs);
  writePair(certPath, keyPath, pair, created);
  return pair;
}

function readPair(certPath: string, keyPath: string): KeyAndCert | undefined {
  if (!existsSync(certPath) || !existsSync(keyPath)) return undefined;
  try {
    const certPem = readFileSync(certPath, 'utf8');
    const keyPem = readFileSync(keyPath, 'utf8');
    certFacts(certPem);
    return { certPem, keyPem };
  } catch {
    return undefined;
  }
}

function writePair(certPath: string, keyPath: string, pair: KeyAndCert, created: string[]): void {
  writeFileSync(keyPath, pair.keyPem, { mode: 0o600 });
  chmodSync(keyPath, 0o600);
  writeFileSync(certPath, pair.certPem, { mode: 0o644 });
  created.push(certPath, keyPath);
}
