/**
 * startApiServerDouble: an in-process Kubernetes API server TEST DOUBLE (not kube-apiserver) on port 0 by
 * default, HTTPS with a freshly generated CA, serving the resources in resources.ts with the real API's
 * storage, watch, patch, error and auth semantics. See README.md for what is faithful and what is not.
 */
import http from 'node:http';
import https from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { realClock, type Clock, serverCloser } from '@nodelet/core/util';
import { Authenticator, defaultPolicy, type AuthorizePolicy, type UserInfo } from './auth/authn.ts';
import { nodeRestrictionPolicy } from './auth/node-policy.ts';
import { createCertAuthority, type CertAuthority, type KeyPair } from './auth/pki.ts';
import { ServiceAccountTokens } from './auth/sa-tokens.ts';
import { createHandler, type RequestRecord } from './http/handler.ts';
import { DEFAULT_ADDRESS_TYPES } from './http/pod-log.ts';
import type { RecordedAccessReview } from './http/reviews.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import { DoubleStore } from './store/double-store.ts';
import { Registry } from './store/registry.ts';
import { RawStore } from './store/store.ts';
import { serveUpgrades } from './http/pod-stream.ts';
import { bootstrapTokenSecret, bootstrapTokenUser } from './auth/bootstrap-tokens.ts';
import { withCsrRules } from './auth/csr-policy.ts';
import { startCsrControllers } from './store/csr-signer.ts';
import { kubeTime } from './store/registry.ts';

export interface ApiServerDoubleOptions {
  port?: number;
  host?: string;
  /** HTTPS with client-certificate auth (default true); false → plain HTTP, bearer tokens only. */
  tls?: boolean;
  /** Static bearer tokens (like --token-auth-file). An admin token in system:masters is always added. */
  tokens?: Record<string, UserInfo>;
  /** Authorization for every resource request and for SubjectAccessReviews (default: system:masters, system:nodes). */
  authorize?: AuthorizePolicy;
  /** Built-in policy when `authorize` is not given: 'groups' (default) or 'node' (Node authorizer-like). */
  authorizer?: 'groups' | 'node';
  clock?: Clock;
  /** Change events kept for watches (the watch-cache window). Default 1000. */
  historyWindow?: number;
  /** BOOKMARK period on the injected clock (default 60 s). */
  bookmarkIntervalMs?: number;
  /** --kubelet-preferred-address-types (default Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP). */
  kubeletPreferredAddressTypes?: string[];
  /** --kubelet-certificate-authority: verify kubelet serving certs with this CA (default: not verified). */
  kubeletCa?: string;
  /** Bootstrap tokens `<id>.<secret>`, written as kube-system Secrets bootstrap-token-<id> (as kubeadm does). */
  bootstrapTokens?: string[];
  /** kube-controller-manager --cluster-signing-duration: lifetime of certificates the CSR signer issues (default 1 year). */
  clusterSigningDurationMs?: number;
  /** How far the signer backdates notBefore (default 5 min, as upstream). */
  signingBackdateMs?: number;
  /** Run the csrapproving controller: kubelet client CSRs of nodes (for themselves) and bootstrappers are approved. */
  csrAutoApprove?: boolean;
}

export interface KubeconfigOptions {
  /** 'cert' (default with TLS): client cert CN=system:node:<name>, O=system:nodes; 'token': a static token. */
  auth?: 'cert' | 'token';
  /** Where to write; default a file in the double's temp dir (removed by stop()). */
  path?: string;
}

export interface ApiServerDouble {
  url: string;
  /** PEM of the cluster CA ('' without TLS). */
  ca: string;
  caKey: string;
  adminToken: string;
  /** The apiserver's client cert for kubelets (CN kube-apiserver-kubelet-client, O system:masters). */
  kubeletClientCert: KeyPair;
  store: DoubleStore;
  requests: RequestRecord[];
  accessReviews: RecordedAccessReview[];
  /** Issue a cert signed by the cluster CA (e.g. a fake kubelet's serving cert). */
  issueCert: ReturnType<typeof createCertAuthority>['issue'];
  kubeconfigFor(nodeName: string, opts?: KubeconfigOptions): string;
  /** End every open watch (as an apiserver restart or a dropped connection would); clients re-watch. */
  closeWatches(): void;
  adminKubeconfig(path?: string): string;
  /** A bootstrap kubeconfig (token auth, as kubeadm's bootstrap-kubelet.conf); the token need not be valid. */
  bootstrapKubeconfig(token: string, path?: string): string;
  /** Approve (or deny) a CSR through /approval, as `kubectl certificate approve|deny` does. */
  approveCsr(name: string, opts?: { deny?: boolean; message?: string }): void;
  /** Close the listener and every connection, keeping the stored objects (an apiserver outage). */
  pause(): Promise<void>;
  /** Listen again on the same port with the same CA and objects (the apiserver back after an outage). */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

interface DoubleState {
  opts: ApiServerDoubleOptions;
  clock: Clock;
  tls: boolean;
  host: string;
  registry: Registry;
  store: DoubleStore;
  tokens: Map<string, UserInfo>;
  adminToken: string;
  saTokens: ServiceAccountTokens;
  ca: CertAuthority;
  kubeletClientCert: KeyPair;
  requests: RequestRecord[];
  accessReviews: RecordedAccessReview[];
  watches: Set<() => void>;
  stopControllers: () => void;
}

function createState(opts: ApiServerDoubleOptions): DoubleState {
  const clock = opts.clock ?? realClock;
  const registry = new Registry(clock, new RawStore({ historyWindow: opts.historyWindow }));
  const store = new DoubleStore(registry);
  for (const name of NAMESPACES) store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const adminToken = randomBytes(16).toString('hex');
  const tokens = new Map<string, UserInfo>(Object.entries(opts.tokens ?? {}));
  tokens.set(adminToken, { username: 'admin', groups: ['system:masters'] });
  const ca = createCertAuthority();
  for (const token of opts.bootstrapTokens ?? []) store.create(bootstrapTokenSecret(token));
  const stopControllers = startCsrControllers(registry, ca, clock, {
    clusterSigningDurationMs: opts.clusterSigningDurationMs,
    backdateMs: opts.signingBackdateMs,
    autoApprove: opts.csrAutoApprove,
  });
  return {
    stopControllers,
    opts,
    clock,
    tls: opts.tls ?? true,
    host: opts.host ?? '127.0.0.1',
    registry,
    store,
    tokens,
    adminToken,
    saTokens: new ServiceAccountTokens(clock, (ns, name, uid) => store.get('serviceaccounts', ns, name)?.metadata.uid === uid),
    ca,
    kubeletClientCert: ca.issue({ commonName: 'kube-apiserver-kubelet-client', organizations: ['system:masters'], usage: 'client' }),
    requests: [],
    accessReviews: [],
    watches: new Set(),
  };
}

function buildHandler(s: DoubleState, port: number) {
  const { opts } = s;
  return createHandler({
    registry: s.registry,
    clock: s.clock,
    authn: new Authenticator(s.tokens, s.saTokens, (t) => bootstrapTokenUser(t, (name) => s.store.get('secrets', 'kube-system', name), s.clock.now())),
    policy: opts.authorize ?? withCsrRules(opts.authorizer === 'node' ? nodeRestrictionPolicy(() => s.store) : defaultPolicy),
    saTokens: s.saTokens,
    kubelet: {
      clientCert: s.kubeletClientCert,
      ca: opts.kubeletCa,
      preferredAddressTypes: opts.kubeletPreferredAddressTypes ?? DEFAULT_ADDRESS_TYPES,
    },
    watch: {
      raw: s.registry.raw,
      clock: s.clock,
      bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
      defaultTimeoutMs: () => (1800 + Math.floor(Math.random() * 1800)) * 1000,
      track: (end) => {
        s.watches.add(end);
        return () => s.watches.delete(end);
      },
    },
    requests: s.requests,
    accessReviews: s.accessReviews,
    serverAddress: `${s.host}:${port}`,
  });
}

async function listen(s: DoubleState): Promise<{ server: http.Server; url: string }> {
  let port = s.opts.port ?? 0;
  const handler: http.RequestListener = (req, res) => current(req, res);
  let current = buildHandler(s, port);
  const serving = s.tls
    ? s.ca.issue({ commonName: 'kube-apiserver', usage: 'server', dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'], ips: ['127.0.0.1', '::1'] })
    : undefined;
  const server = serving
    ? https.createServer({ cert: serving.cert, key: serving.key, ca: s.ca.cert, requestCert: true, rejectUnauthorized: false }, handler)
    : http.createServer(handler);
  serveUpgrades(server, handler);
  closers.set(server, serverCloser(server));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, s.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  current = buildHandler(s, port);
  return { server, url: `${s.tls ? 'https' : 'http'}://${s.host}:${port}` };
}

export async function startApiServerDouble(opts: ApiServerDoubleOptions = {}): Promise<ApiServerDouble> {
  const s = createState(opts);
  const listening = await listen(s);
  let server: http.Server | undefined = listening.server;
  const url = listening.url;
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-double-'));
  const caPem = s.tls ? s.ca.cert : '';
  const write = (path: string | undefined, file: string, text: string) => {
    const p = path ?? join(dir, file);
    writeFileSync(p, text, { mode: 0o600 });
    return p;
  };
  const endWatches = () => {
    for (const end of [...s.watches]) end();
  };
  let stopped = false;
  return {
    url,
    ca: caPem,
    caKey: s.ca.key,
    adminToken: s.adminToken,
    kubeletClientCert: s.kubeletClientCert,
    store: s.store,
    requests: s.requests,
    accessReviews: s.accessReviews,
    issueCert: s.ca.issue,
    kubeconfigFor(nodeName, k = {}) {
      const user = `system:node:${nodeName}`;
      if (k.auth === 'token' || !s.tls) {
        const token = randomBytes(16).toString('hex');
        s.tokens.set(token, { username: user, groups: ['system:nodes'] });
        return write(k.path, `${nodeName}.kubeconfig`, kubeconfigYaml(url, caPem || undefined, { user, token }));
      }
      const clientCert = s.ca.issue({ commonName: user, organizations: ['system:nodes'], usage: 'client' });
      return write(k.path, `${nodeName}.kubeconfig`, kubeconfigYaml(url, caPem, { user, clientCert }));
    },
    bootstrapKubeconfig(token, path) {
      return write(path, `bootstrap-${randomBytes(4).toString('hex')}.kubeconfig`, kubeconfigYaml(url, caPem || undefined, { user: 'tls-bootstrap-token-user', token }));
    },
    approveCsr(name, o = {}) {
      const r = s.registry.resource('certificates.k8s.io', 'certificatesigningrequests');
      const csr = s.registry.get(r, undefined, name);
      const now = kubeTime(s.clock.now());
      const type = o.deny ? 'Denied' : 'Approved';
      const condition = { type, status: 'True', reason: `ApiServerDouble${o.deny ? 'Deny' : 'Approve'}`, message: o.message ?? `This CSR was ${o.deny ? 'denied' : 'approved'} by the test.`, lastUpdateTime: now };
      s.registry.update(r, undefined, name, { ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] } }, 'approval');
    },
    closeWatches: endWatches,
    adminKubeconfig(path) {
      return write(path, 'admin.kubeconfig', kubeconfigYaml(url, caPem || undefined, { user: 'admin', token: s.adminToken }));
    },
    async pause() {
      endWatches();
      const srv = server;
      server = undefined;
      if (srv) await closeServer(srv);
    },
    async resume() {
      if (server || stopped) return;
      server = (await listen({ ...s, opts: { ...s.opts, port: Number(new URL(url).port) } })).server;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      s.stopControllers();
      endWatches();
      if (server) await closeServer(server);
      server = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Closes at once, also sockets still in the TLS handshake (a client reconnecting while we stop, e.g. an informer). */
function closeServer(server: http.Server): Promise<void> {
  return closers.get(server)?.close(0) ?? Promise.resolve();
}
const closers = new WeakMap<http.Server, ReturnType<typeof serverCloser>>();
