/**
 * The console token contract (apps/agent/README.md, "Console sign-in"): the file is created when missing (32 random
 * bytes base64url, 0600, a created parent 0700), reused and trimmed later; `Authorization: Bearer <token>` on 10250
 * authenticates nodelet:console-admin on HTTP routes, /trpc, socket.io (polling and websocket) and stream upgrades;
 * a wrong token is 401 even with anonymous auth on; a verified client certificate comes first.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { io as connect } from 'socket.io-client';
import { createLogger, type LogRecord } from '@nodelet/core/util';
import type { Authorizer } from '../servers/auth.ts';
import type { HelloPayload } from '../streams/types.ts';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { doRequest, upgradeRequest } from '../testing/https-client.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { loadConsoleToken } from './build-auth.ts';
import { consoleTokenMatcher, ensureConsoleToken } from './console-token.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'nodelet-console-token-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('console token file', () => {
  it('is created when missing: 32 random bytes as base64url, file 0600, created parent 0700; reused later', () => {
    const path = join(tempDir(), 'state', 'console.token');
    const first = ensureConsoleToken(path);
    assert.equal(first.created, true);
    assert.match(first.token, /^[A-Za-z0-9_-]{43}$/, '32 bytes base64url (no padding) is 43 characters');
    assert.equal(Buffer.from(first.token, 'base64url').length, 32);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(path, '..')).mode & 0o777, 0o700);
    assert.equal(readFileSync(path, 'utf8').trim(), first.token);
    const again = ensureConsoleToken(path);
    assert.deepEqual([again.created, again.token], [false, first.token]);
    assert.notEqual(ensureConsoleToken(join(tempDir(), 'console.token')).token, first.token, 'random per file');
  });

  it('an existing parent directory keeps its mode; a token written by hand is trimmed', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'shared'), { mode: 0o755 });
    const path = join(dir, 'shared', 'console.token');
    writeFileSync(path, '  my-own-token-of-some-length \n', { mode: 0o600 });
    assert.deepEqual(ensureConsoleToken(path), { token: 'my-own-token-of-some-length', created: false, groupOrWorldReadable: false });
    assert.equal(statSync(join(dir, 'shared')).mode & 0o777, 0o755);
  });

  it('an empty or short file is an error naming the file (never an empty token)', () => {
    const path = join(tempDir(), 'console.token');
    writeFileSync(path, '\n');
    assert.throws(() => ensureConsoleToken(path), (e: Error) => e.message.includes(path) && /at least 16 characters/.test(e.message));
  });

  it('start logs "console token: <path>" every time and the token only when it was created', () => {
    const path = join(tempDir(), 'console.token');
    const records: LogRecord[] = [];
    const logger = createLogger((r) => records.push(r), 'auth');
    loadConsoleToken({ consoleTokenFile: path, rootDir: '/unused' }, logger);
    loadConsoleToken({ consoleTokenFile: path, rootDir: '/unused' }, logger);
    const token = readFileSync(path, 'utf8').trim();
    assert.deepEqual(records.map((r) => r.msg).filter((m) => m === `console token: ${path}`).length, 2);
    assert.equal(records.filter((r) => JSON.stringify(r).includes(token)).length, 1, 'the token is shown once');
  });

  it('the matcher accepts the token only', () => {
    const m = consoleTokenMatcher('abcdefghijklmnopqrstuvwxyz');
    assert.equal(m('abcdefghijklmnopqrstuvwxyz'), true);
    for (const bad of ['', 'abcdefghijklmnopqrstuvwxy', 'abcdefghijklmnopqrstuvwxyzz', 'Abcdefghijklmnopqrstuvwxyz']) assert.equal(m(bad), false, bad);
  });
});

describe('Authorization: Bearer <console token> on the kubelet port', () => {
  const kubelet = new FakeKubelet();
  kubelet.pods = [fakePod('default', 'web')];
  const token = 'console-token-for-the-test-0123456789';
  const seen: string[] = [];
  const recording: Authorizer = { authorize: (a) => (seen.push(`${a.user.name} ${a.user.groups.join(',')}`), { allowed: true }) };
  const consoleToken = { matches: consoleTokenMatcher(token), user: { name: 'nodelet:console-admin', groups: ['system:masters', 'system:authenticated'] } };
  let ts: TestServer;
  let anon: TestServer;
  const bearer = (t = token) => ({ Authorization: `Bearer ${t}` });
  before(async () => {
    ts = await startTestServer(kubelet, { consoleToken, authorizer: recording });
    anon = await startTestServer(kubelet, { consoleToken, anonymousAuth: true });
  });
  after(async () => {
    await ts.close();
    await anon.close();
  });

  it('HTTP routes and /trpc: 200 as nodelet:console-admin in system:masters', async () => {
    seen.length = 0;
    const pods = await doRequest(`${ts.base}/pods`, ts.anonymousTls, 'GET', undefined, bearer());
    assert.equal(pods.status, 200);
    const node = await doRequest(`${ts.base}/trpc/node.get`, ts.anonymousTls, 'GET', undefined, bearer());
    assert.equal(node.status, 200, node.body);
    assert.deepEqual(seen, ['nodelet:console-admin system:masters,system:authenticated', 'nodelet:console-admin system:masters,system:authenticated']);
  });

  it('the token is trimmed and the scheme is case-insensitive', async () => {
    assert.equal((await doRequest(`${ts.base}/pods`, ts.anonymousTls, 'GET', undefined, { Authorization: `bearer   ${token}  ` })).status, 200);
  });

  it('a wrong, empty or truncated token is 401, also with anonymous auth on', async () => {
    for (const s of [ts, anon]) {
      for (const h of [bearer('wrong-token-wrong-token'), bearer(token.slice(0, -1)), { Authorization: 'Bearer' }, { Authorization: 'Bearer a b' }]) {
        const r = await doRequest(`${s.base}/pods`, s.anonymousTls, 'GET', undefined, h);
        assert.deepEqual([r.status, r.body], [401, 'Unauthorized\n'], JSON.stringify(h));
      }
    }
    assert.equal((await doRequest(`${anon.base}/pods`, anon.anonymousTls)).status, 200, 'no token at all is anonymous');
  });

  it('a verified client certificate comes first (a wrong token beside it does not matter)', async () => {
    seen.length = 0;
    const r = await doRequest(`${ts.base}/pods`, ts.consoleTls, 'GET', undefined, bearer('wrong-token-wrong-token'));
    assert.equal(r.status, 200);
    assert.deepEqual(seen, ['system:nodelet-console system:masters,system:authenticated']);
  });

  it('stream upgrades authenticate with it (a wrong token is 401 before anything else)', async () => {
    const ok = await upgradeRequest(`${ts.base}/exec/default/web/main?command=true`, ts.anonymousTls, bearer());
    assert.notEqual(ok.status, 401);
    const bad = await upgradeRequest(`${ts.base}/exec/default/web/main?command=true`, ts.anonymousTls, bearer('wrong-token-wrong-token'));
    assert.equal(bad.status, 401);
  });

  for (const transport of ['polling', 'websocket'] as const) {
    it(`socket.io over ${transport}: hello with the token, connect_error with a wrong one`, async () => {
      const open = (t: string) => connect(ts.base, { path: '/socket.io', transports: [transport], reconnection: false, ...ts.anonymousTls, extraHeaders: bearer(t) });
      const good = open(token);
      const hello = await new Promise<HelloPayload>((resolve, reject) => {
        good.once('nodelet:hello', resolve);
        good.once('connect_error', reject);
      });
      good.disconnect();
      assert.equal(hello.node.name, 'fake-node');
      const bad = open('wrong-token-wrong-token');
      const outcome = await new Promise<string>((resolve) => {
        bad.once('connect_error', () => resolve('refused'));
        bad.once('connect', () => resolve('connected'));
      });
      bad.disconnect();
      assert.equal(outcome, 'refused');
    });
  }
});
