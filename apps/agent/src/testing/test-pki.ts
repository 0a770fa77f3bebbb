/** A throwaway PKI for tests: the agent's own generator in a temp dir, plus a foreign CA's client cert. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nullLogger } from '@nodelet/core/util/logger.ts';
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
  const foreign = ensurePki(join(root, 'foreign'), 'other', nullLogger);
  return { root, pki, foreign, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
