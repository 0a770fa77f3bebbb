/**
 * Port-forward over SPDY (portforward.k8s.io), as the kubelet serves it: for every forwarded connection the client
 * opens an error stream and a data stream with headers `streamType` (error / data), `port` and `requestID`. Once
 * both streams of a request are there, a relay connects to 127.0.0.1:<port> in the pod's network namespace and
 * the data stream is piped to and from it; a failure is written as text on the error stream. A pair that does
 * not complete within the creation timeout is answered with an error.
 */
import { spawn } from 'node:child_process';
import type { RuntimeContext } from '../runtime/context.ts';
import { relayArgv } from './port-forward-session.ts';
import type { SpdyStream } from './spdy/connection.ts';
import { STREAM_CREATION_TIMEOUT_MS } from './spdy-exec-io.ts';
import type { PortForwardStreamRequest } from './streaming-server.ts';
import { hostEnv } from '../linux/host-env.ts';

interface Pair {
  data?: SpdyStream;
  error?: SpdyStream;
  timer: NodeJS.Timeout;
}

/** Validate a stream's headers: its type, port and request id, or the reason it is refused. */
export function pairKey(s: { header(name: string): string | undefined }): { ok: true; type: 'data' | 'error'; port: number; requestId: string } | { ok: false; reason: string } {
  const type = s.header('streamType');
  if (type !== 'data' && type !== 'error') return { ok: false, reason: `invalid stream type "${type ?? ''}"` };
  const portText = s.header('port') ?? '';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) return { ok: false, reason: `invalid port header "${portText}"` };
  return { ok: true, type, port, requestId: s.header('requestID') ?? '' };
}

/** Returns the per-stream handler of one port-forward connection and a function to end everything. */
export function spdyPortForward(ctx: RuntimeContext, req: PortForwardStreamRequest): { onStream(s: SpdyStream): void; close(): void } {
  const pairs = new Map<string, Pair>();
  const relays = new Set<ReturnType<typeof spawn>>();
  const fail = (p: Pair, msg: string) => {
    if (p.error?.writable) p.error.end(msg);
    p.data?.end();
  };
  const run = (p: Pair, port: number) => {
    const data = p.data!;
    const error = p.error!;
    const argv = relayArgv(ctx, req.podSandboxId, port);
    if (!argv.ok) return fail(p, `error forwarding port ${port} to pod ${req.podSandboxId}, uid : ${argv.reason}`);
    const child = spawn(argv.argv[0]!, argv.argv.slice(1), { env: hostEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    relays.add(child);
    const errs: Buffer[] = [];
    child.stderr?.on('data', (d: Buffer) => errs.push(d));
    child.stdin?.on('error', () => undefined);
    data.pipe(child.stdin!);
    child.stdout?.pipe(data);
    data.on('error', () => undefined);
    child.once('close', (code) => {
      relays.delete(child);
      if (code !== 0) {
        const msg = Buffer.concat(errs).toString().trim() || `relay exited with code ${String(code)}`;
        fail(p, `error forwarding port ${port} to pod ${req.podSandboxId}, uid : failed to connect to localhost:${port} inside namespace "${req.podSandboxId}", IPv4: ${msg}`);
      } else if (error.writable) error.end();
    });
    data.once('close', () => child.exitCode === null && child.kill('SIGKILL'));
  };
  return {
    onStream(s) {
      const k = pairKey(s);
      if (!k.ok) {
        ctx.logger.debug('port-forward stream refused', { reason: k.reason });
        return void s.destroy();
      }
      let p = pairs.get(k.requestId);
      if (!p) {
        const created: Pair = {
          timer: setTimeout(() => {
            pairs.delete(k.requestId);
            fail(created, `timed out waiting for the other stream of request ${k.requestId}`);
          }, STREAM_CREATION_TIMEOUT_MS),
        };
        pairs.set(k.requestId, (p = created));
      }
      if (p[k.type]) return void s.destroy();
      p[k.type] = s;
      s.on('error', () => undefined);
      if (k.type === 'error') s.resume(); // the client writes nothing on it
      if (p.data && p.error) {
        clearTimeout(p.timer);
        pairs.delete(k.requestId);
        run(p, k.port);
      }
    },
    close() {
      for (const p of pairs.values()) clearTimeout(p.timer);
      pairs.clear();
      for (const r of relays) r.kill('SIGKILL');
    },
  };
}
