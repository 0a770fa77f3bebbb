/**
 * Authentication/authorization matrix: every route × identity × listener, against the kubelet's documented
 * behaviour (kubelet-authentication-authorization docs; the kubelet's server.go):
 *  - 10250 authenticates (x509 client certificate, then bearer token, then anonymous if --anonymous-auth) and
 *    authorizes every path, /healthz included. Unauthenticated: 401 with anonymous auth off; a certificate that
 *    does not verify or a bad bearer token: 401 always (never anonymous). Authenticated but denied: 403.
 *  - 10255 (read-only) has no authentication/authorization; it serves the default handlers only (/pods, /stats,
 *    /metrics*, /healthz): exec/attach/portForward/containerLogs/runningpods are 404 there (nodelet's /trpc and
 *    /socket.io too).
 *  - 10248 serves /healthz to anyone; everything else is 404.
 * Authorization is Webhook (SubjectAccessReview) against the API-server double, whose policy allows
 * system:masters and system:nodes and denies everyone else, so "unauthorized user" (a cluster-CA certificate
 * for CN=eve) is really denied by the authorizer the agent uses in API-server mode. The console's own listener
 * (4194) is tested by the console's suite. The matrix is printed as tables.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startApiServerDouble, type ApiServerDouble } from '@nodelet/apiserver-double';
import { createApiClientFromKubeconfig, type ApiClient } from '@nodelet/core/apiclient';
import { realClock, nullLogger } from '@nodelet/core/util';
import { consoleTokenMatcher, CONSOLE_USER } from '../auth/console-token.ts';
import { createTokenWebhook, createWebhookAuthorizer } from '../auth/webhook.ts';
import { createCa } from '../pki/certs.ts';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { FakeStats } from '../testing/fake-stats.ts';
import { doRequest, upgradeRequest, type TlsClientOptions } from '../testing/https-client.ts';
import { createTestPki, type TestPki } from '../testing/test-pki.ts';
import { createKubeletServer } from './kubelet-server.ts';
import { createHealthzServer, createReadOnlyServer } from './readonly-server.ts';
import type { CriStreams } from './routes/cri-streams.ts';

type Listener = '10250' | '10250 anonymous-auth' | '10255' | '10248';
type Identity = 'anonymous' | 'bad token' | 'foreign-CA cert' | 'self-signed cert' | 'unauthorized user' | 'authorized user' | 'console token';
const IDENTITIES: Identity[] = ['anonymous', 'bad token', 'foreign-CA cert', 'self-signed cert', 'unauthorized user', 'authorized user', 'console token'];

/** Route → what it answers once past the filter: on 10250, on 10255, on 10248 (from the kubelet's handler sets). */
const ROUTES: Array<{ route: string; upgrade?: boolean; served: number; readOnly: number; healthz: number }> = [
  { route: 'GET /pods', served: 200, readOnly: 200, healthz: 404 },
  { route: 'GET /runningpods/', served: 200, readOnly: 404, healthz: 404 },
  { route: 'GET /healthz', served: 200, readOnly: 200, healthz: 200 },
  { route: 'GET /stats/summary', served: 200, readOnly: 200, healthz: 404 },
  { route: 'GET /metrics', served: 200, readOnly: 200, healthz: 404 },
  { route: 'GET /metrics/cadvisor', served: 200, readOnly: 200, healthz: 404 },
  { route: 'GET /metrics/resource', served: 200, readOnly: 200, healthz: 404 },
  { route: 'GET /containerLogs/default/web/main', served: 200, readOnly: 404, healthz: 404 },
  { route: 'WS /exec/default/web/main?command=ls&stdout=1', upgrade: true, served: 101, readOnly: 404, healthz: 404 },
  { route: 'WS /attach/default/web/main?stdout=1', upgrade: true, served: 101, readOnly: 404, healthz: 404 },
  { route: 'WS /portForward/default/web', upgrade: true, served: 101, readOnly: 404, healthz: 404 },
  { route: 'GET /trpc/node.get', served: 200, readOnly: 404, healthz: 404 },
  { route: 'GET /socket.io/?EIO=4&transport=polling', served: 200, readOnly: 404, healthz: 404 },
  { route: 'GET /no-such-path', served: 404, readOnly: 404, healthz: 404 },
];

/** Identity → status on 10250 before the route runs ('route' = passes the filter). */
const FILTER: Record<'10250' | '10250 anonymous-auth', Record<Identity, 401 | 403 | 'route'>> = {
  '10250': { anonymous: 401, 'bad token': 401, 'foreign-CA cert': 401, 'self-signed cert': 401, 'unauthorized user': 403, 'authorized user': 'route', 'console token': 'route' },
  '10250 anonymous-auth': { anonymous: 403, 'bad token': 401, 'foreign-CA cert': 401, 'self-signed cert': 401, 'unauthorized user': 403, 'authorized user': 'route', 'console token': 'route' },
};

function expected(listener: Listener, identity: Identity, r: (typeof ROUTES)[number]): number {
  if (listener === '10255') return r.readOnly;
  if (listener === '10248') return r.healthz;
  const f = FILTER[listener][identity];
  return f === 'route' ? r.served : f;
}

const CONSOLE_TOKEN = 'matrix-console-token-0123456789abcdef';
const kubelet = new FakeKubelet();
const web = fakePod('default', 'web', ['main']);
web.status = { phase: 'Running', containerStatuses: [{ name: 'main', containerID: 'containerd://c-main', state: { running: {} }, image: '', imageID: '', ready: true, restartCount: 0 }] };
kubelet.pods = [web];
kubelet.runningPods = [web];
kubelet.logs.set('default/web/main', 'hello\n');
Object.assign(kubelet, { stats: new FakeStats() });

/** A runtime streaming server stand-in: switches protocols on every upgrade, then closes. */
function startSwitcher(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => res.writeHead(400).end());
  server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream` })));
}

describe('authentication and authorization matrix', () => {
  let tp: TestPki;
  let api: ApiServerDouble;
  let client: ApiClient;
  let switcher: { server: Server; url: string };
  const bases = new Map<Listener, string>();
  const closers: Array<() => Promise<void>> = [];
  const tlsOf = new Map<Identity, { tls: TlsClientOptions; headers: Record<string, string> }>();

  before(async () => {
    tp = createTestPki();
    api = await startApiServerDouble();
    const kc = await createApiClientFromKubeconfig(api.adminKubeconfig(), { clock: realClock });
    assert.ok(kc.ok, kc.ok ? '' : kc.reason);
    client = kc.client;
    switcher = await startSwitcher();
    const cri: CriStreams = {
      exec: async () => ({ ok: true, url: switcher.url }),
      attach: async () => ({ ok: true, url: switcher.url }),
      portForward: async () => ({ ok: true, url: switcher.url }),
      sandboxOf: async () => 'sandbox-web',
      close: () => undefined,
    };
    const deps = { client, clock: realClock, logger: nullLogger };
    for (const listener of ['10250', '10250 anonymous-auth'] as const) {
      const srv = createKubeletServer({
        kubelet, logger: nullLogger, nodeName: 'fake-node', cri, anonymousAuth: listener === '10250 anonymous-auth',
        authorizer: createWebhookAuthorizer(deps), tokens: createTokenWebhook(deps),
        consoleToken: { matches: consoleTokenMatcher(CONSOLE_TOKEN), user: CONSOLE_USER },
        // The kubelet trusts the cluster CA for client certificates (--client-ca-file).
        tls: { cert: tp.pki.serving.certPem, key: tp.pki.serving.keyPem, clientCAs: [tp.pki.ca.certPem, api.ca] },
      });
      bases.set(listener, `https://127.0.0.1:${await srv.listen(0, '127.0.0.1')}`);
      closers.push(async () => {
        await srv.closeStreams();
        await srv.close(10);
      });
    }
    for (const [listener, make] of [['10255', createReadOnlyServer], ['10248', createHealthzServer]] as const) {
      const s = make(kubelet, nullLogger);
      bases.set(listener, `http://127.0.0.1:${await s.listen(0, '127.0.0.1')}`);
      closers.push(() => s.close(10));
    }
    const ca = tp.pki.ca.certPem;
    const selfSigned = createCa('system:admin', Date.now());
    const eve = api.issueCert({ commonName: 'eve', usage: 'client' });
    tlsOf.set('anonymous', { tls: { ca }, headers: {} });
    tlsOf.set('bad token', { tls: { ca }, headers: { Authorization: 'Bearer not-a-valid-token' } });
    tlsOf.set('foreign-CA cert', { tls: { ca, cert: tp.foreign.console.certPem, key: tp.foreign.console.keyPem }, headers: {} });
    tlsOf.set('self-signed cert', { tls: { ca, cert: selfSigned.certPem, key: selfSigned.keyPem }, headers: {} });
    tlsOf.set('unauthorized user', { tls: { ca, cert: eve.cert, key: eve.key }, headers: {} });
    tlsOf.set('authorized user', { tls: { ca, cert: api.kubeletClientCert.cert, key: api.kubeletClientCert.key }, headers: {} });
    tlsOf.set('console token', { tls: { ca }, headers: { Authorization: `Bearer ${CONSOLE_TOKEN}` } });
  });
  after(async () => {
    for (const c of closers) await c();
    switcher.server.close();
    client.close();
    await api.stop();
    tp.cleanup();
  });

  it('every route × identity × listener answers as the kubelet does', async () => {
    const mismatches: string[] = [];
    const tables: string[] = [];
    for (const listener of ['10250', '10250 anonymous-auth', '10255', '10248'] as const) {
      const rows: string[][] = [];
      for (const r of ROUTES) {
        const row = [r.route];
        for (const identity of IDENTITIES) {
          const { tls, headers } = tlsOf.get(identity)!;
          const path = r.route.replace(/^\S+ /, '');
          const url = `${bases.get(listener)}${path}`;
          const got = r.upgrade ? (await upgradeRequest(url, tls, headers)).status : (await doRequest(url, tls, 'GET', undefined, headers)).status;
          const want = expected(listener, identity, r);
          row.push(got === want ? String(got) : `${got}≠${want}`);
          if (got !== want) mismatches.push(`${listener} ${identity} ${r.route}: got ${got}, want ${want}`);
        }
        rows.push(row);
      }
      tables.push(markdownTable(`${listener}${listener.startsWith('10250') ? ' (Webhook authorization)' : ''}`, ['route', ...IDENTITIES], rows));
    }
    process.stdout.write(`${tables.join('\n')}\n`);
    assert.deepEqual(mismatches, []);
  });

  it('the denials were the authorizer\'s: SubjectAccessReviews for eve and system:anonymous were refused', () => {
    const denied = new Set(api.accessReviews.filter((r) => !r.allowed).map((r) => r.attributes.user));
    assert.ok(denied.has('eve') && denied.has('system:anonymous'), JSON.stringify([...denied]));
  });
});

function markdownTable(title: string, header: string[], rows: string[][]): string {
  const lines = ['', `${title}:`, `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}
