/**
 * The console token (standalone sign-in): `Authorization: Bearer <token>` on the kubelet port, where <token> is the
 * trimmed content of --console-token-file (default <root-dir>/console.token). The agent creates the file when it is
 * missing (32 random bytes, base64url, mode 0600; a parent directory it creates gets 0700). The token stands for
 * nodelet:console-admin in system:masters. Tokens are compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { UserInfo } from '../servers/auth.ts';

export const CONSOLE_USER: UserInfo = { name: 'nodelet:console-admin', groups: ['system:masters', 'system:authenticated'] };

export interface ConsoleTokenFile {
  token: string;
  /** True when this call created the file (the token is then shown once). */
  created: boolean;
  /** True when the file can be read by group or others (a warning, not an error). */
  groupOrWorldReadable: boolean;
}

/** Reads the token file, creating it when missing. Throws with a readable message when it exists but is unusable. */
export function ensureConsoleToken(path: string): ConsoleTokenFile {
  const existing = readToken(path);
  if (existing !== undefined) return existing;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  try {
    writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process created it in between: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readToken(path);
      if (raced) return raced;
    }
    throw err;
  }
  return { token, created: true, groupOrWorldReadable: false };
}

function readToken(path: string): ConsoleTokenFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`console token file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const token = text.trim();
  if (token.length < 16 || /\s/.test(token)) {
    throw new Error(`console token file ${path}: must hold one token of at least 16 characters without spaces (delete it to have a new one created)`);
  }
  return { token, created: false, groupOrWorldReadable: (statSync(path).mode & 0o077) !== 0 };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** A matcher that compares candidates with the token in constant time (digests, so lengths leak nothing either). */
export function consoleTokenMatcher(token: string): (candidate: string) => boolean {
  const want = digest(token);
  return (candidate) => timingSafeEqual(digest(candidate), want);
}
