/**
 * The CRI streaming RPCs the kubelet port needs (Exec / Attach / PortForward answer a URL on the runtime's
 * streaming server) plus the pod → sandbox lookup, on their own small gRPC client to the runtime endpoint.
 */
import * as grpc from '@grpc/grpc-js';
import { CRI_CHANNEL_OPTIONS } from '@nodelet/core/cri';
import { loadCriPackage } from '../../../../../proto/load.ts';

export interface ExecParams {
  containerId: string;
  cmd: string[];
  tty: boolean;
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

export type StreamUrl = { ok: true; url: string } | { ok: false; status: number; reason: string };

export interface CriStreams {
  exec(p: ExecParams): Promise<StreamUrl>;
  attach(p: Omit<ExecParams, 'cmd'>): Promise<StreamUrl>;
  portForward(podSandboxId: string, ports: number[]): Promise<StreamUrl>;
  /** The READY sandbox of a pod uid. */
  sandboxOf(podUid: string): Promise<string | undefined>;
  close(): void;
}

type Rpc = (req: object, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: Record<string, unknown>) => void) => void;

export function criStreamsClient(endpoint: string, timeoutMs = 30_000): CriStreams {
  const pkg = loadCriPackage().runtime.v1;
  const target = endpoint.startsWith('unix://') || endpoint.includes(':') ? endpoint : `unix://${endpoint}`;
  const client = new pkg.RuntimeService(target, grpc.credentials.createInsecure(), CRI_CHANNEL_OPTIONS);
  const call = (name: 'Exec' | 'Attach' | 'PortForward' | 'ListPodSandbox', req: object) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const fn = (client as unknown as Record<string, Rpc>)[name]!.bind(client);
      fn(req, { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res ?? {})));
    });
  const url = async (name: 'Exec' | 'Attach' | 'PortForward', req: object): Promise<StreamUrl> => {
    try {
      return { ok: true, url: String((await call(name, req)).url) };
    } catch (err) {
      const e = err as grpc.ServiceError;
      return { ok: false, status: e.code === grpc.status.NOT_FOUND ? 404 : 500, reason: `${name}: ${e.details ?? e.message}` };
    }
  };
  return {
    exec: (p) => url('Exec', p),
    attach: (p) => url('Attach', p),
    portForward: (podSandboxId, port) => url('PortForward', { podSandboxId, port }),
    async sandboxOf(podUid) {
      const res = await call('ListPodSandbox', { filter: { state: { state: 'SANDBOX_READY' }, labelSelector: { 'io.kubernetes.pod.uid': podUid } } });
      const items = (res.items ?? []) as { id: string; createdAt: number }[];
      return items.sort((a, b) => b.createdAt - a.createdAt)[0]?.id;
    },
    close: () => client.close(),
  };
}
