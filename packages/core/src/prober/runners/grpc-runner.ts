/**
 * The grpc probe: grpc.health.v1 Health/Check with the probe's service over an insecure channel, as the
 * kubelet's grpc prober (User-Agent kube-probe/<ver>): SERVING succeeds ("service healthy"); another status
 * fails (`service unhealthy (responded with "NOT_SERVING")`); connect/RPC errors fail with upstream's texts.
 * Connect and RPC share one deadline of timeoutS.
 */
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { Clock } from '../../util/clock.ts';
import type { RunOutcome } from '../types.ts';
import { goDuration, joinHostPort } from './go-text.ts';
import { GO_CODE_NAMES } from '../../util/grpc-status.ts';

export const HEALTH_PROTO_PATH: string = fileURLToPath(new URL('./health.proto', import.meta.url));

const LOADER_OPTIONS: protoLoader.Options = { keepCase: false, longs: Number, enums: String, defaults: true, oneofs: true };


export interface HealthCheckResponse {
  status: 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';
}

type HealthClient = grpc.Client & {
  Check(
    req: { service: string },
    opts: grpc.CallOptions,
    cb: (err: grpc.ServiceError | null, res?: HealthCheckResponse) => void,
  ): grpc.ClientUnaryCall;
};

let cachedService: grpc.ServiceClientConstructor | undefined;

/** The loaded grpc.health.v1.Health service (client constructor; `.service` is the definition for servers). */
export function loadHealthService(): grpc.ServiceClientConstructor {
  if (cachedService) return cachedService;
  const def = protoLoader.loadSync(HEALTH_PROTO_PATH, LOADER_OPTIONS);
  const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  cachedService = pkg.grpc.health.v1.Health;
  return cachedService;
}

function waitReady(client: grpc.Client, deadline: number): Promise<Error | undefined> {
  return new Promise((resolve) => client.waitForReady(deadline, (err) => resolve(err ?? undefined)));
}

function check(client: HealthClient, service: string, deadline: number): Promise<{ err?: grpc.ServiceError; res?: HealthCheckResponse }> {
  return new Promise((resolve) => client.Check({ service }, { deadline }, (err, res) => resolve({ err: err ?? undefined, res })));
}

export function createGrpcRunner(
  clock: Clock,
  kubeletVersion = '1.34',
): (host: string, port: number, service: string, timeoutS: number) => Promise<RunOutcome> {
  return async (host, port, service, timeoutS) => {
    const Health = loadHealthService();
    const addr = joinHostPort(host, port);
    const client = new Health(addr, grpc.credentials.createInsecure(), {
      'grpc.primary_user_agent': `kube-probe/${kubeletVersion}`,
      'grpc.enable_retries': 0,
    }) as unknown as HealthClient;
    const deadline = clock.now() + timeoutS * 1000;
    try {
      const connErr = await waitReady(client, deadline);
      if (connErr) {
        if (clock.now() >= deadline || /deadline/i.test(connErr.message)) {
          return { status: 'failure', output: `timeout: failed to connect service "${addr}" within ${goDuration(timeoutS)}: context deadline exceeded` };
        }
        return { status: 'failure', output: `error: failed to connect service at "${addr}": ${connErr.message}` };
      }
      const { err, res } = await check(client, service, deadline);
      if (err) {
        if (err.code === grpc.status.UNIMPLEMENTED) {
          return { status: 'failure', output: `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${err.details}` };
        }
        if (err.code === grpc.status.DEADLINE_EXCEEDED) {
          return { status: 'failure', output: `timeout: health rpc did not complete within ${goDuration(timeoutS)}` };
        }
        const name = GO_CODE_NAMES[err.code] ?? `Code(${err.code})`;
        return { status: 'failure', output: `error: health rpc probe failed: rpc error: code = ${name} desc = ${err.details}` };
      }
      const st = res?.status ?? 'UNKNOWN';
      if (st !== 'SERVING') return { status: 'failure', output: `service unhealthy (responded with "${st}")` };
      return { status: 'success', output: 'service healthy' };
    } finally {
      client.close();
    }
  };
}
