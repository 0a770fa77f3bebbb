// A kubelet server (10250 shape: TLS, client certificates) over a fake kubelet on port 0, for tests of the
// agent's routers and streams. Also the typed tRPC client those tests use.
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { nullLogger } from '@nodelet/core/util';
import { createAuthorizer, type Authorizer, type BearerAuthenticator, type GuardOptions } from '../servers/auth.ts';
import type { HttpLimits } from '../servers/limits.ts';
import type { CriStreams } from '../servers/routes/cri-streams.ts';
import { createKubeletServer, type KubeletServer } from '../servers/kubelet-server.ts';
import type { AppRouter } from '../trpc/router.ts';
import type { FakeKubelet } from './fake-kubelet.ts';
import { tlsEventSource, tlsFetch, type TlsClientOptions } from './https-client.ts';
import { createTestPki, type TestPki } from './test-pki.ts';
import type { FlightRecorderApi } from '../recorder/types.ts';

export interface TestServer {
  readonly tp: TestPki;
  readonly srv: KubeletServer;
  readonly port: number;
  readonly base: string;
  /** TLS options of the console's client certificate; `anonymousTls` trusts the CA but shows no certificate. */
  readonly consoleTls: TlsClientOptions;
  readonly anonymousTls: TlsClientOptions;
  close(): Promise<void>;
}

export interface TestServerOptions {
  anonymousAuth?: boolean;
  /** Bearer tokens (default: none accepted); authorizer (default AlwaysAllow). */
  tokens?: BearerAuthenticator;
  authorizer?: Authorizer;
  /** The console token matcher (auth/console-token.ts); connection limits (default the agent's). */
  consoleToken?: GuardOptions['consoleToken'];
  limits?: HttpLimits;
  /** CRI streaming for /exec, /attach, /portForward (default none: 501). */
  cri?: CriStreams;
  /** The flight recorder behind recorder.* and `nodelet:recorder` (default none: off). */
  recorder?: FlightRecorderApi;
}

export async function startTestServer(kubelet: FakeKubelet, opts: TestServerOptions = {}): Promise<TestServer> {
  const tp = createTestPki();
  const srv = createKubeletServer({
    kubelet,
    logger: nullLogger,
    authorizer: opts.authorizer ?? createAuthorizer('AlwaysAllow'),
    ...(opts.tokens ? { tokens: opts.tokens } : {}),
    ...(opts.consoleToken ? { consoleToken: opts.consoleToken } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
    ...(opts.cri ? { cri: opts.cri } : {}),
    ...(opts.recorder ? { recorder: opts.recorder } : {}),
    nodeName: 'fake-node',
    anonymousAuth: opts.anonymousAuth ?? false,
    tls: { cert: tp.pki.serving.certPem, key: tp.pki.serving.keyPem, clientCAs: [tp.pki.ca.certPem] },
  });
  const port = await srv.listen(0, '127.0.0.1');
  return {
    tp,
    srv,
    port,
    base: `https://127.0.0.1:${port}`,
    consoleTls: { ca: tp.pki.ca.certPem, cert: tp.pki.console.certPem, key: tp.pki.console.keyPem },
    anonymousTls: { ca: tp.pki.ca.certPem },
    close: async () => {
      await srv.closeStreams();
      await srv.close(10);
      tp.cleanup();
    },
  };
}

export function trpcTestClient(base: string, tls: TlsClientOptions) {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: `${base}/trpc`, EventSource: tlsEventSource(tls) as never }),
        false: httpBatchLink({ url: `${base}/trpc`, fetch: tlsFetch(tls) }),
      }),
    ],
  });
}
