/**
 * The real console server (createConsoleServer, a stand-in page handler instead of Next) in front of the real
 * agent kubelet server (apps/agent test server over a FakeKubelet) on port 0. The agent accepts its console token
 * (auth/console-token.ts: nodelet:console-admin) and, as a TokenReview would, a second user that its authorizer
 * refuses (403). The agent side records every request and upgrade it receives, so tests can prove what never
 * reached it.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { after, before } from 'node:test';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { GcResult } from '@nodelet/agent/types';
import {
  CONSOLE_USER,
  consoleTokenMatcher,
  type Authorizer,
  type BearerAuthenticator,
  FakeKubelet,
  fakePod,
  FakeStats,
  startTestServer,
  type TestServer,
} from '@nodelet/agent/testing';
import { DEFAULT_LIMITS, type ConsoleConfig } from '../config.ts';
import { createConsoleServer, type ConsoleServer } from '../console-server.ts';
import { rawRequest } from './raw-http.ts';

/** Tokens the agent knows: its console token, a user its authorizer refuses (403), and one it can stop accepting. */
export const TOKENS = { admin: 'admin-token-0123456789abcdef', refused: 'refused-token-0123456789abcdef', revocable: 'revocable-token-0123456789ab' } as const;
export const REFUSED_USER = 'refused-user';

const authorizer: Authorizer = {
  authorize: (a) => (a.user.name === REFUSED_USER ? { allowed: false, reason: 'refused' } : { allowed: true }),
};

export interface ConsoleStack {
  agent: TestServer;
  kubelet: FakeKubelet;
  console: ConsoleServer;
  port: number;
  /** Paths the agent received (HTTP requests and upgrades), as sent, and their headers. */
  agentSeen: string[];
  agentHeaders: IncomingHttpHeaders[];
  gcRuns(): number;
  /** The agent stops accepting TOKENS.revocable (as a TokenReview would after the token was deleted). */
  revoke(): void;
  /** Signs in with the token URL; returns the session cookie (`name=value`). */
  signIn(token?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startConsoleStack(over: Partial<ConsoleConfig> = {}): Promise<ConsoleStack> {
  const kubelet = new FakeKubelet();
  kubelet.pods = [fakePod('default', 'web')];
  kubelet.logs.set('default/web/main', 'SECRET=hunter2\n');
  let runs = 0;
  const result = (): GcResult => ({ removed: [], freedBytes: 0, errors: [], trigger: 'manual', time: new Date(0).toISOString() });
  Object.assign(kubelet, {
    stats: new FakeStats(),
    gc: {
      images: async () => result(),
      containers: async () => (runs++, result()),
      last: () => ({}),
      policies: () => ({ image: { highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 0, maxAgeMs: 0, periodMs: 0 }, container: { minAgeMs: 0, maxPerPodContainer: 1, maxContainers: -1, periodMs: 0 } }),
    },
  });
  let revoked = false;
  const tokens: BearerAuthenticator = {
    authenticate: async (t) => {
      if (t === TOKENS.revocable && !revoked) return { ok: true, user: { name: 'revocable-user', groups: [] } };
      if (t === TOKENS.refused) return { ok: true, user: { name: REFUSED_USER, groups: [] } };
      return { ok: false, message: 'invalid bearer token' };
    },
  };
  const consoleToken = { matches: consoleTokenMatcher(TOKENS.admin), user: CONSOLE_USER };
  const agent = await startTestServer(kubelet, { tokens, authorizer, consoleToken });
  const agentSeen: string[] = [];
  const agentHeaders: IncomingHttpHeaders[] = [];
  const record = (prefix: string) => (req: IncomingMessage) => {
    agentSeen.push(`${prefix}${req.url ?? ''}`);
    agentHeaders.push(req.headers);
  };
  agent.srv.server.prependListener('request', record(''));
  agent.srv.server.prependListener('upgrade', record('upgrade '));
  const config: ConsoleConfig = {
    port: 0,
    hostname: '127.0.0.1',
    agentUrl: new URL(agent.base),
    pkiDir: join(agent.tp.root, 'pki'),
    dev: false,
    nodeName: 'fake-node',
    sessionTtlMs: 3600_000,
    limits: DEFAULT_LIMITS,
    ...over,
  };
  const consoleServer = createConsoleServer({
    config,
    agents: [{ name: 'default', url: config.agentUrl, pkiDir: config.pkiDir }],
    nextHandler: async (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>console page</html>'),
  });
  await new Promise<void>((r) => consoleServer.server.listen(0, '127.0.0.1', r));
  const port = (consoleServer.server.address() as AddressInfo).port;
  return {
    agent,
    kubelet,
    console: consoleServer,
    port,
    agentSeen,
    agentHeaders,
    gcRuns: () => runs,
    revoke: () => (revoked = true),
    async signIn(token = TOKENS.admin) {
      const r = await rawRequest(port, { target: `/?token=${encodeURIComponent(token)}`, headers: { 'sec-fetch-site': 'none' } });
      if (r.status !== 303) throw new Error(`sign-in answered ${r.status}: ${r.body}`);
      return (r.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    },
    async close() {
      consoleServer.close();
      consoleServer.server.closeAllConnections();
      await new Promise((r) => consoleServer.server.close(r));
      await agent.close();
    },
  };
}

/** A test file's stack: started and signed in before its tests, closed after them. */
export function useSignedInStack(): { s: ConsoleStack; cookie: string } {
  const ctx = {} as { s: ConsoleStack; cookie: string };
  before(async () => {
    ctx.s = await startConsoleStack();
    ctx.cookie = await ctx.s.signIn();
  });
  after(() => ctx.s.close());
  return ctx;
}
