/**
 * The kubelet's keys and certificate signing requests: an ECDSA P-256 key in a SEC1 "EC PRIVATE KEY" PEM (client-go
 * keyutil.MakeEllipticPrivateKeyPEM, what bootstrap and the certificate manager generate), and a PKCS#10 request as
 * certutil.MakeCSR writes it (subject O… then CN, DNS / IP SANs in an extensionRequest attribute). The DER is built
 * with node-forge's ASN.1 writer and signed with node:crypto: forge's own CSR code knows RSA keys only.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type Forge from 'node-forge';
import { forge } from '../pki/certs.ts';

export interface CsrSubject {
  commonName: string;
  organizations?: string[];
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256WithRsa: '1.2.840.113549.1.1.11',
};
/** ASN.1 PrintableString's alphabet: Go's asn1 writes a string in it as PrintableString, others as UTF8String. */
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

/** A new ECDSA P-256 private key, SEC1 PEM ("EC PRIVATE KEY"), as the kubelet generates. */
export function newPrivateKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return privateKey.export({ type: 'sec1', format: 'pem' }).toString();
}

export function isRsaKey(keyPem: string): boolean {
  return createPrivateKey(keyPem).asymmetricKeyType === 'rsa';
}

/** client-go's certificate manager asks "key encipherment" only for RSA keys (it means nothing for ECDSA). */
export function usagesForKey(keyPem: string, usages: readonly string[]): string[] {
  return isRsaKey(keyPem) ? [...usages] : usages.filter((u) => u !== 'key encipherment');
}

/** The public key as DER SubjectPublicKeyInfo (Go's x509.MarshalPKIXPublicKey). */
export function publicKeyDer(key: string | KeyObject): Buffer {
  return createPublicKey(key).export({ type: 'spki', format: 'der' });
}

/** DER → forge ASN.1 with BIT STRINGs kept raw (forge's typings know only its `strict` option), so re-encoding is exact. */
export function derNode(der: Buffer): Forge.asn1.Asn1 {
  const f = forge();
  const fromDer = f.asn1.fromDer as unknown as (b: Forge.util.ByteBuffer, o: { decodeBitStrings: boolean }) => Forge.asn1.Asn1;
  return fromDer(f.util.createBuffer(der.toString('binary')), { decodeBitStrings: false });
}

/** Base64 in 64-column lines between BEGIN/END lines, as Go's encoding/pem. */
export function pemEncode(type: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}

/** A PKCS#10 request for `subject` (+ SANs) signed by the key (ECDSA → ecdsa-with-SHA256, RSA → sha256WithRSAEncryption). */
export function makeCsrPem(keyPem: string, subject: CsrSubject, dnsNames: readonly string[] = [], ipAddresses: readonly string[] = []): string {
  const f = forge();
  const { asn1 } = f;
  const U = asn1.Class.UNIVERSAL;
  const T = asn1.Type;
  const key = createPrivateKey(keyPem);
  const rsa = key.asymmetricKeyType === 'rsa';
  if (!rsa && key.asymmetricKeyType !== 'ec') throw new Error(`unsupported private key type ${key.asymmetricKeyType ?? 'unknown'} (ECDSA or RSA)`);
  const oid = (o: string) => asn1.create(U, T.OID, false, asn1.oidToDer(o).getBytes());
  const str = (v: string) => (PRINTABLE.test(v) ? asn1.create(U, T.PRINTABLESTRING, false, v) : asn1.create(U, T.UTF8, false, f.util.encodeUtf8(v)));
  const rdn = (o: string, v: string) => asn1.create(U, T.SET, true, [asn1.create(U, T.SEQUENCE, true, [oid(o), str(v)])]);
  const name = asn1.create(U, T.SEQUENCE, true, [
    ...(subject.organizations ?? []).map((o) => rdn(OID.organization, o)),
    rdn(OID.commonName, subject.commonName),
  ]);
  const spki = derNode(publicKeyDer(key));
  const sans = [
    ...dnsNames.map((d) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, d)),
    ...ipAddresses.map((ip) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, ipBytes(ip))),
  ];
  const attributes = sans.length
    ? [
        asn1.create(U, T.SEQUENCE, true, [
          oid(OID.extensionRequest),
          asn1.create(U, T.SET, true, [
            asn1.create(U, T.SEQUENCE, true, [
              asn1.create(U, T.SEQUENCE, true, [
                oid(OID.subjectAltName),
                asn1.create(U, T.OCTETSTRING, false, asn1.toDer(asn1.create(U, T.SEQUENCE, true, sans)).getBytes()),
              ]),
            ]),
          ]),
        ]),
      ]
    : [];
  const info = asn1.create(U, T.SEQUENCE, true, [
    asn1.create(U, T.INTEGER, false, asn1.integerToDer(0).getBytes()),
    name,
    spki,
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, attributes),
  ]);
  const infoDer = Buffer.from(asn1.toDer(info).getBytes(), 'binary');
  const signature = sign('sha256', infoDer, key);
  const algorithm = rsa
    ? asn1.create(U, T.SEQUENCE, true, [oid(OID.sha256WithRsa), asn1.create(U, T.NULL, false, '')])
    : asn1.create(U, T.SEQUENCE, true, [oid(OID.ecdsaWithSha256)]);
  const csr = asn1.create(U, T.SEQUENCE, true, [info, algorithm, asn1.create(U, T.BITSTRING, false, '\0' + signature.toString('binary'))]);
  return pemEncode('CERTIFICATE REQUEST', Buffer.from(asn1.toDer(csr).getBytes(), 'binary'));
}

function ipBytes(ip: string): string {
  const b = (forge().util as unknown as { bytesFromIP(ip: string): string | null }).bytesFromIP(ip);
  if (!b) throw new Error(`invalid IP address "${ip}"`);
  return b;
}

/**
 * The bootstrap CSR's name, as the kubelet's digestedName: `node-csr-` + base64url(SHA-512/256 over the base64url of the
 * public key, the CN, each O and each usage, each followed by '|'), so a restart with the same key finds its request.
 */
export function digestedCsrName(keyPem: string, subject: CsrSubject, usages: readonly string[]): string {
  const hash = createHash('sha512-256');
  const write = (data: Buffer) => hash.update(data.toString('base64url')).update('|');
  write(publicKeyDer(createPrivateKey(keyPem)));
  write(Buffer.from(subject.commonName));
  for (const o of subject.organizations ?? []) write(Buffer.from(o));
  for (const u of usages) write(Buffer.from(u));
  return `node-csr-${hash.digest('base64url')}`;
}
