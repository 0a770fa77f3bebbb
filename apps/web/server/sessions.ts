/**
 * Console sessions (pure apart from the random source; injected clock; tested). The cookie holds an opaque random
 * session id, never the token: the token stays in the console's memory, sign-out and expiry end it server-side,
 * and a leaked cookie is worth nothing after sign-out, expiry or a console restart. The cookie is HttpOnly,
 * SameSite=Strict, Path=/, and its name carries the console's port (cookies are per host, not per port, so two
 * consoles on one host keep separate sessions).
 */
import { randomBytes } from 'node:crypto';

export interface Session {
  id: string;
  /** The bearer token the console forwards to the agent for this session. */
  token: string;
  expiresAt: number;
}

export interface SessionStore {
  create(token: string): Session;
  get(id: string | undefined): Session | undefined;
  delete(id: string | undefined): void;
  size(): number;
}

export interface SessionOptions {
  ttlMs: number;
  /** Oldest sessions are dropped beyond this many. */
  max: number;
  now?: () => number;
  randomId?: () => string;
}

export function createSessionStore(o: SessionOptions): SessionStore {
  const now = o.now ?? Date.now;
  const randomId = o.randomId ?? (() => randomBytes(32).toString('base64url'));
  const sessions = new Map<string, Session>();
  const prune = () => {
    const t = now();
    for (const [id, s] of sessions) if (s.expiresAt <= t) sessions.delete(id);
    while (sessions.size >= o.max) {
      const oldest = sessions.keys().next().value;
      if (oldest === undefined) break;
      sessions.delete(oldest);
    }
  };
  return {
    create(token) {
      prune();
      const s = { id: randomId(), token, expiresAt: now() + o.ttlMs };
      sessions.set(s.id, s);
      return s;
    },
    get(id) {
      const s = id ? sessions.get(id) : undefined;
      if (s && s.expiresAt <= now()) {
        sessions.delete(s.id);
        return undefined;
      }
      return s;
    },
    delete(id) {
      if (id) sessions.delete(id);
    },
    size: () => sessions.size,
  };
}

export const cookieName = (port: number) => `nodelet-console-${port}`;

/** The value of one cookie from a Cookie header (first occurrence). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(name: string, s: Session, now: number): string {
  const maxAge = Math.max(0, Math.floor((s.expiresAt - now) / 1000));
  return `${name}=${s.id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}`;
}

export function clearedCookie(name: string): string {
  return `${name}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}
