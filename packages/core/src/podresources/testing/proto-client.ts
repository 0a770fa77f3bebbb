/**
 * A pod resources client as a monitoring agent builds one: from the proto file alone (upstream's names and
 * numbers) with its own loader options — snake_case fields, int64 as strings — and nothing of the server's code.
 */
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

const PROTO = fileURLToPath(new URL('../../../../../proto/podresources/v1/api.proto', import.meta.url));

export type PodResourcesRpc = 'List' | 'GetAllocatableResources' | 'Get';

export interface PodResourcesProtoClient {
  /** The answer (snake_case, as the proto names fields) or the gRPC error. */
  call(rpc: PodResourcesRpc, req?: object): Promise<{ err: grpc.ServiceError | null; res: any }>;
  close(): void;
}

export function podResourcesProtoClient(socket: string): PodResourcesProtoClient {
  const def = protoLoader.loadSync(PROTO, { keepCase: true, longs: String, enums: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(def) as any;
  const c = new pkg.v1.PodResourcesLister(`unix://${socket}`, grpc.credentials.createInsecure());
  return {
    call: (rpc, req = {}) => new Promise((resolve) => c[rpc](req, (err: grpc.ServiceError | null, res: unknown) => resolve({ err, res }))),
    close: () => c.close(),
  };
}
