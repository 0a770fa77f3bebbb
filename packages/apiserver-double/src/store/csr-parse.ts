/**
 * PKCS#10 certificate requests as the API server reads `spec.request` (certificates.ParseCSR + CheckSignature): the
 * first PEM block must be a CERTIFICATE REQUEST; its subject (CN, O), subjectAltNames from the extensionRequest
 * attribute, public key, and a signature that verifies with that key. DER is read with node-forge's ASN.1 reader,
 * keys and signatures with node:crypto (ECDSA, RSA and Ed25519 requests; forge's own CSR code knows RSA only).
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

export interface ParsedCsr {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** DER of the subject Name and of the SubjectPublicKeyInfo (copied into the issued certificate). */
  subjectDer: Buffer;
  spkiDer: Buffer;
  publicKey: KeyObject;
}

export type CsrParse = { ok: true; csr: ParsedCsr } | { ok: false; reason: string };

const OID_CN = '2.5.4.3';
const OID_O = '2.5.4.10';
const OID_EXTENSION_REQUEST = '1.2.840.113549.1.9.14';
const OID_SAN = '2.5.29.17';
const HASHES: Record<string, string | null> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
};

type Node = forge.asn1.Asn1;
const kids = (n: Node | undefined): Node[] => (Array.isArray(n?.value) ? (n.value as Node[]) : []);
const bytes = (n: Node | undefined): string => (typeof n?.value === 'string' ? n.value : '');
const der = (n: Node): Buffer => Buffer.from(forge.asn1.toDer(n).getBytes(), 'binary');
const oidOf = (n: Node | undefined): string => forge.asn1.derToOid(bytes(n));
/** forge's fromDer with options (its typings know only `strict`): BIT STRINGs kept raw, so re-encoding is exact. */
const fromDerWith = forge.asn1.fromDer as unknown as (b: forge.util.ByteBuffer, o: { strict?: boolean; decodeBitStrings: boolean }) => Node;
export const derNode = (der: Buffer, strict = false): Node => fromDerWith(forge.util.createBuffer(der.toString('binary')), { strict, decodeBitStrings: false });
const bytesToIp = (forge.util as unknown as { bytesToIP(b: string): string | null }).bytesToIP;

/** The first PEM block of `pem` (type and DER), as Go's pem.Decode. */
export function pemBlock(pem: string): { type: string; der: Buffer } | undefined {
  const m = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(pem);
  if (!m) return undefined;
  const body = m[2]!.split(/\r?\n/).filter((l) => l && !l.includes(':')).join('');
  return { type: m[1]!, der: Buffer.from(body, 'base64') };
}

/** ParseCSR + CheckSignature, with the error texts the API server puts into `spec.request: Invalid value`. */
export function parseCsr(pem: string): CsrParse {
  const block = pemBlock(pem);
  if (!block || block.type !== 'CERTIFICATE REQUEST') return { ok: false, reason: 'PEM block type must be CERTIFICATE REQUEST' };
  try {
    return parseDer(block.der);
  } catch {
    return { ok: false, reason: 'x509: malformed certificate request' };
  }
}

function parseDer(derBytes: Buffer): CsrParse {
  let root: Node;
  try {
    root = derNode(derBytes, true);
  } catch (err) {
    return { ok: false, reason: `asn1: syntax error: ${(err as Error).message}` };
  }
  const [info, alg, sig] = kids(root);
  const [, subject, spki, attrs] = kids(info);
  if (!info || !alg || !sig || !subject || !spki) return { ok: false, reason: 'x509: malformed certificate request' };
  let publicKey: KeyObject;
  const spkiDer = der(spki);
  try {
    publicKey = createPublicKey({ key: spkiDer, format: 'der', type: 'spki' });
  } catch {
    return { ok: false, reason: 'x509: unsupported public key type' };
  }
  const out: ParsedCsr = { commonName: '', organizations: [], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [], subjectDer: der(subject), spkiDer, publicKey };
  for (const rdn of kids(subject))
    for (const atv of kids(rdn)) {
      const [type, value] = kids(atv);
      const text = forge.util.decodeUtf8(bytes(value));
      if (oidOf(type) === OID_CN) out.commonName = text;
      if (oidOf(type) === OID_O) out.organizations.push(text);
    }
  try {
    readSans(attrs, out);
  } catch {
    return { ok: false, reason: 'x509: cannot parse the subjectAltName extension' };
  }
  const algorithm = oidOf(kids(alg)[0]);
  if (!(algorithm in HASHES)) return { ok: false, reason: 'x509: cannot verify signature: algorithm unimplemented' };
  const signature = Buffer.from(bytes(sig).slice(1), 'binary');
  let good = false;
  try {
    good = verify(HASHES[algorithm] ?? null, der(info), publicKey, signature);
  } catch {
    good = false;
  }
  if (!good) return { ok: false, reason: publicKey.asymmetricKeyType === 'ec' ? 'x509: ECDSA verification failure' : 'crypto/rsa: verification error' };
  return { ok: true, csr: out };
}

/** subjectAltName from the extensionRequest attribute: email [1], DNS [2], URI [6], IP [7]. */
function readSans(attrs: Node | undefined, out: ParsedCsr): void {
  for (const attr of kids(attrs)) {
    const [type, values] = kids(attr);
    if (oidOf(type) !== OID_EXTENSION_REQUEST) continue;
    for (const ext of kids(kids(values)[0])) {
      const parts = kids(ext);
      if (oidOf(parts[0]) !== OID_SAN) continue;
      const names = derNode(Buffer.from(bytes(parts[parts.length - 1]), 'binary'));
      for (const n of kids(names)) {
        const v = bytes(n);
        if (n.type === 1) out.emailAddresses.push(v);
        else if (n.type === 2) out.dnsNames.push(v);
        else if (n.type === 6) out.uris.push(v);
        else if (n.type === 7) out.ipAddresses.push(bytesToIp(v) ?? '');
      }
    }
  }
}
