/**
 * The kubelet's certificate file store (client-go util/certificate/certificate_store.go): each issued pair is
 * written to `<cert-dir>/<prefix>-<YYYY-MM-DD-HH-MM-SS>.pem` (certificate blocks, then the key; mode 0600) and
 * `<prefix>-current.pem` is a symlink to the newest, replaced atomically (a `<prefix>-updated.pem` symlink renamed
 * over it). Current() reads the symlinked pair, else the configured cert/key files, else `<prefix>.crt` +
 * `<prefix>.key`; a corrupt file or a key that does not match its certificate is an error naming the files.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface CertKeyPair {
  /** The certificate blocks (leaf first, then intermediates). */
  certPem: string;
  keyPem: string;
  leaf: X509Certificate;
  /** Where the pair was read from (one file, or cert + key). */
  files: string[];
}

/** No pair on disk at all (client-go's NoCertKeyError): the caller may bootstrap or request one. */
export class NoCertKeyError extends Error {
  override readonly name = 'NoCertKeyError';
}

export interface StoreOptions {
  /** 'kubelet-client' or 'kubelet-server'. */
  pairNamePrefix: string;
  certDirectory: string;
  /** The configured files (kubeconfig client-certificate / client-key, tlsCertFile / tlsPrivateKeyFile). */
  certFile?: string;
  keyFile?: string;
  /** Wall clock for the file names (default Date.now). */
  now?: () => number;
}

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const KEY_BLOCK = /-----BEGIN (?:EC |RSA |)PRIVATE KEY-----[\s\S]+?-----END (?:EC |RSA |)PRIVATE KEY-----/;

export class CertificateStore {
  readonly currentPath: string;

  constructor(private readonly o: StoreOptions) {
    this.currentPath = join(o.certDirectory, `${o.pairNamePrefix}-current.pem`);
  }

  /** The pair in use; NoCertKeyError when none exists, another Error (naming the files) when one is unreadable. */
  current(): CertKeyPair {
    if (existsSync(this.currentPath)) return loadPair(this.currentPath, this.currentPath);
    const { certFile, keyFile } = this.o;
    if (certFile && keyFile && existsSync(certFile) && existsSync(keyFile)) return loadPair(certFile, keyFile);
    const c = join(this.o.certDirectory, `${this.o.pairNamePrefix}.crt`);
    const k = join(this.o.certDirectory, `${this.o.pairNamePrefix}.key`);
    if (existsSync(c) && existsSync(k)) return loadPair(c, k);
    throw new NoCertKeyError(`no cert/key files read at "${this.currentPath}", ("${certFile ?? ''}", "${keyFile ?? ''}") or ("${c}", "${k}")`);
  }

  /** Writes a new pair and points `<prefix>-current.pem` at it; the pair is validated before the switch. */
  update(certPem: string, keyPem: string): CertKeyPair {
    const certs = certPem.match(CERT_BLOCK) ?? [];
    const key = KEY_BLOCK.exec(keyPem)?.[0];
    if (certs.length === 0) throw new Error('invalid certificate data: no CERTIFICATE PEM block');
    if (!key) throw new Error('invalid key data: no PRIVATE KEY PEM block');
    mkdirSync(this.o.certDirectory, { recursive: true, mode: 0o755 });
    const path = resolve(this.o.certDirectory, `${this.o.pairNamePrefix}-${stamp(this.o.now?.() ?? Date.now())}.pem`);
    writeFileSync(path, `${[...certs, key].join('\n')}\n`, { mode: 0o600 });
    const pair = loadPair(path, path);
    this.updateSymlink(path);
    return { ...pair, files: [this.currentPath] };
  }

  private updateSymlink(target: string): void {
    let st;
    try {
      st = lstatSync(this.currentPath);
    } catch {
      st = undefined;
    }
    if (st && !st.isSymbolicLink()) throw new Error(`expected "${this.currentPath}" to be a symlink but it is a file`);
    const updated = join(this.o.certDirectory, `${this.o.pairNamePrefix}-updated.pem`);
    rmSync(updated, { force: true });
    symlinkSync(target, updated);
    renameSync(updated, this.currentPath);
  }
}

/** Go's "2006-01-02-15-04-05" in local time, as time.Now().Format in the kubelet. */
export function stamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}-${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
}

/** Reads and checks a pair: certificate blocks parse, a key block parses, and the key is the certificate's. */
export function loadPair(certFile: string, keyFile: string): CertKeyPair {
  const files = certFile === keyFile ? [certFile] : [certFile, keyFile];
  const named = files.map((f) => `"${f}"`).join(', ');
  let certText: string;
  let keyText: string;
  try {
    certText = readFileSync(certFile, 'utf8');
    keyText = certFile === keyFile ? certText : readFileSync(keyFile, 'utf8');
  } catch (err) {
    throw new Error(`could not read the certificate/key pair ${named}: ${(err as Error).message}`);
  }
  const certs = certText.match(CERT_BLOCK) ?? [];
  const keyPem = KEY_BLOCK.exec(keyText)?.[0];
  if (certs.length === 0) throw new Error(`corrupt certificate/key pair ${named}: no CERTIFICATE PEM block in "${certFile}"`);
  if (!keyPem) throw new Error(`corrupt certificate/key pair ${named}: no PRIVATE KEY PEM block in "${keyFile}"`);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(certs[0] as string);
  } catch (err) {
    throw new Error(`corrupt certificate/key pair ${named}: the certificate in "${certFile}" does not parse (${(err as Error).message})`);
  }
  let matches: boolean;
  try {
    matches = leaf.checkPrivateKey(createPrivateKey(keyPem));
  } catch (err) {
    throw new Error(`corrupt certificate/key pair ${named}: the private key in "${keyFile}" does not parse (${(err as Error).message})`);
  }
  if (!matches) throw new Error(`mismatched certificate/key pair ${named}: the private key is not the certificate's key`);
  return { certPem: `${certs.join('\n')}\n`, keyPem: `${keyPem}\n`, leaf, files };
}
