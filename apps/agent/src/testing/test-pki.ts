/** A throwaway PKI for tests: the agent's own generator in a temp dir, plus a foreign CA's client cert. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nullLogger } from '@nodelet/core/util';
import { ensurePki, type Pki } from '../pki/ensure-pki.ts';

export interface TestPki {
  root: string;
  pki: Pki;
  /** A client cert issued by a different CA (must be rejected). */
  foreign: Pki;
  cleanup(): void;
}

export function createTestPki(): TestPki {
  const root = mkdtempSync(join(tmpdir(), 'nodelet-agent-test-'));
  const pki = ensurePki(root, 'fake-node', nullLogger);
  // Issued a minute earlier: CA names carry the second of creation (`nodelet-ca@<s>`), and two trusted CAs with one
  // subject name make OpenSSL pick either as the issuer (a --client-ca-file test then failed about 1 run in 3).
  const foreign = ensurePki(join(root, 'foreign'), 'other', nullLogger, Date.now() - 60_000);
  return { root, pki, foreign, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
