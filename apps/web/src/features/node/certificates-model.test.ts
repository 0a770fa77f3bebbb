import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CertificatesStatus } from '../../lib/api-types.ts';
import { certificateRows, certificateTone, dnLine, relative } from './certificates-model.ts';

const NOW = Date.parse('2026-11-26T09:00:00.000Z');
const iso = (s: number) => new Date(NOW + s * 1000).toISOString();

test('relative times: the two largest units, future and past', () => {
  assert.deepEqual(
    [relative(iso(42), NOW), relative(iso(90_061), NOW), relative(iso(-300), NOW), relative(iso(0), NOW), relative(undefined, NOW)],
    ['in 42s', 'in 1d 1h', '5m ago', 'in 0s', '-'],
  );
});

test('distinguished names: X509Certificate.subject lines joined', () => {
  assert.equal(dnLine('O=system:nodes\nCN=system:node:n1'), 'O=system:nodes, CN=system:node:n1');
  assert.equal(dnLine(undefined), '-');
});

test('tones: expired red, a failed rotation amber, the last tenth of the lifetime without a rotation amber', () => {
  const life = { notBefore: iso(-900), notAfter: iso(90) }; // 990 s lifetime, 90 s left (under a tenth)
  const cases: Array<[string, Parameters<typeof certificateTone>[0], string]> = [
    ['fresh', { source: 'rotating', notBefore: iso(-10), notAfter: iso(3600), nextRotation: iso(2500) }, 'ok'],
    ['expired', { source: 'rotating', notBefore: iso(-100), notAfter: iso(-1) }, 'bad'],
    ['rotation failing', { source: 'rotating', ...life, nextRotation: iso(5), lastError: 'csr denied' }, 'warn'],
    ['last tenth, no rotation', { source: 'file', ...life }, 'warn'],
    ['last tenth, rotation planned before expiry', { source: 'rotating', ...life, nextRotation: iso(30) }, 'ok'],
  ];
  for (const [name, c, want] of cases) assert.equal(certificateTone(c, NOW), want, name);
});

test('rows: client first, then serving, with source, expiry and rotation in words', () => {
  const s: CertificatesStatus = {
    client: {
      source: 'rotating', subject: 'O=system:nodes\nCN=system:node:n1', issuer: 'CN=kubernetes', notBefore: iso(-60), notAfter: iso(60),
      nextRotation: iso(30), lastError: 'Post "https://api/apis/certificates.k8s.io/v1/certificatesigningrequests": connection refused', lastErrorTime: iso(-5), renewErrors: 1, rotations: 2,
    },
    serving: { source: 'generated', subject: 'CN=n1@1764147600', issuer: 'CN=n1-ca@1764147600', notBefore: iso(-60), notAfter: iso(365 * 86_400) },
  };
  const rows = certificateRows(s, NOW);
  assert.deepEqual(rows.map((r) => [r.which, r.subject, r.expires, r.rotates, r.tone]), [
    ['client', 'O=system:nodes, CN=system:node:n1', 'in 1m', 'in 30s', 'warn'],
    ['serving', 'CN=n1@1764147600', 'in 365d', 'never (not rotated)', 'ok'],
  ]);
  assert.equal(rows[0]!.rotations, 2);
  assert.match(rows[0]!.lastError!, /connection refused/);
  assert.match(rows[1]!.source, /self-signed/);
  assert.deepEqual(certificateRows({ serving: { source: 'rotating' } }, NOW).map((r) => [r.which, r.rotates, r.expires]), [['serving', 'not planned yet', '-']]);
  assert.deepEqual(certificateRows(null, NOW), []);
});
