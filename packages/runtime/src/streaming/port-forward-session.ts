/**
 * A port-forward session on an open WebSocket: for the i-th requested port, channel 2i carries data and 2i+1
 * errors. Each port gets one TCP connection to 127.0.0.1:<port> inside the pod's network namespace, made by a
 * tiny node relay spawned under `nsenter --net` (plus the pod's user namespace when it has one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { WebSocket } from 'ws';
import type { RuntimeContext } from '../runtime/context.ts';
import { frame, parsePorts, portPrefix, unframe } from './channel-protocol.ts';
import type { PortForwardStreamRequest } from './streaming-server.ts';
import { hostEnv } from '../linux/host-env.ts';

/** Connects, then pipes stdin ⇄ the socket; a connect error goes to stderr with exit 1. */
const RELAY = [
  "const s = require('node:net').connect(Number(process.argv[1]), '127.0.0.1');",
  "s.on('connect', () => { process.stdin.pipe(s); s.pipe(process.stdout); });",
  "s.on('error', (e) => { process.stderr.write(e.message); process.exit(1); });",
  "s.on('close', () => process.exit(0));",
].join('\n');

export function relayArgv(ctx: RuntimeContext, podSandboxId: string, port: number): { ok: true; argv: string[] } | { ok: false; reason: string } {
  const sb = ctx.store.findSandbox(podSandboxId);
  if (!sb) return { ok: false, reason: `failed to find sandbox "${podSandboxId}" in store: not found` };
  if (sb.state !== 'SANDBOX_READY' || !sb.pausePid) return { ok: false, reason: `sandbox "${sb.id}" is not running` };
  const node = [process.execPath, '-e', RELAY, String(port)];
  if (!sb.namespaces.net) return { ok: true, argv: node };
  const user = sb.namespaces.user ? ['--user', '--preserve-credentials'] : [];
  return { ok: true, argv: [ctx.bins.nsenter, '-t', String(sb.pausePid), ...user, '--net', '--', ...node] };
}

export function runPortForwardSession(ctx: RuntimeContext, ws: WebSocket, req: PortForwardStreamRequest, url: URL): void {
  const parsed = parsePorts([...url.searchParams.getAll('port'), ...url.searchParams.getAll('ports')]);
  const ports = parsed.ok && parsed.ports.length > 0 ? parsed.ports : req.ports;
  if (!parsed.ok || ports.length === 0) {
    ws.close(1008, parsed.ok ? 'no port given' : parsed.reason);
    return;
  }
  const relays: (ChildProcess | undefined)[] = [];
  let live = 0;
  ports.forEach((port, i) => {
    ws.send(frame(2 * i, portPrefix(port)));
    ws.send(frame(2 * i + 1, portPrefix(port)));
    const sendError = (msg: string) => {
      if (ws.readyState === ws.OPEN) {
        ws.send(frame(2 * i + 1, `error forwarding port ${port} to pod ${req.podSandboxId}, uid : ${msg}`));
      }
    };
    const argv = relayArgv(ctx, req.podSandboxId, port);
    if (!argv.ok) return sendError(argv.reason);
    const child = spawn(argv.argv[0]!, argv.argv.slice(1), { env: hostEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    relays[i] = child;
    live++;
    const errs: Buffer[] = [];
    child.stdout?.on('data', (d: Buffer) => ws.readyState === ws.OPEN && ws.send(frame(2 * i, d)));
    child.stderr?.on('data', (d: Buffer) => errs.push(d));
    child.stdin?.on('error', () => undefined);
    child.once('close', (code) => {
      if (code !== 0) {
        const msg = Buffer.concat(errs).toString().trim() || `relay exited with code ${String(code)}`;
        sendError(`failed to connect to localhost:${port} inside namespace "${req.podSandboxId}", IPv4: ${msg}`);
      }
      if (--live === 0 && ws.readyState === ws.OPEN) ws.close(1000);
    });
  });
  ws.on('message', (msg: Buffer, isBinary: boolean) => {
    const m = unframe(isBinary ? msg : Buffer.from(msg));
    if (!m || m.channel % 2 !== 0 || m.data.length === 0) return;
    relays[m.channel / 2]?.stdin?.write(m.data);
  });
  ws.once('close', () => {
    for (const r of relays) if (r && r.exitCode === null) r.kill('SIGKILL');
  });
}
