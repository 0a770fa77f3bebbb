/**
 * Dev-only PKI for the mock agent: a CA and a serving cert for 127.0.0.1/localhost, written as ca.crt and
 * kubelet.crt/key (the agent's file names). Reused when present. The console verifies the agent with ca.crt only.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

export interface MockPki { ca: string; cert: string; key: string }

function keyPair(): { pub: forge.pki.PublicKey; priv: forge.pki.rsa.PrivateKey; pem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const priv = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
  const pub = forge.pki.setRsaPublicKey(priv.n, priv.e);
  return { pub, priv, pem };
}

function makeCert(cn: string, pub: forge.pki.PublicKey, signer: forge.pki.rsa.PrivateKey, issuer: forge.pki.CertificateField[] | null, ext: object[]) {
  const c = forge.pki.createCertificate();
  c.publicKey = pub;
  c.serialNumber = String(Date.now() + Math.floor(Math.random() * 1000));
  c.validity.notBefore = new Date(Date.now() - 60_000);
  c.validity.notAfter = new Date(Date.now() + 365 * 86400_000);
  const subject = [{ name: 'commonName', value: cn }];
  c.setSubject(subject);
  c.setIssuer(issuer ?? subject);
  c.setExtensions(ext);
  c.sign(signer, forge.md.sha256.create());
  return c;
}

export function ensureMockPki(dir: string): MockPki {
  const files = ['ca.crt', 'kubelet.crt', 'kubelet.key'].map((f) => join(dir, f));
  if (!files.every((f) => existsSync(f))) {
    mkdirSync(dir, { recursive: true });
    const ca = keyPair();
    const caCert = makeCert('nodelet-mock-ca', ca.pub, ca.priv, null, [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true }]);
    const srv = keyPair();
    const srvCert = makeCert('mock-node-1', srv.pub, ca.priv, caCert.subject.attributes, [
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ]);
    writeFileSync(join(dir, 'ca.crt'), forge.pki.certificateToPem(caCert));
    writeFileSync(join(dir, 'kubelet.crt'), forge.pki.certificateToPem(srvCert));
    writeFileSync(join(dir, 'kubelet.key'), srv.pem, { mode: 0o600 });
  }
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  return { ca: read('ca.crt'), cert: read('kubelet.crt'), key: read('kubelet.key') };
}
