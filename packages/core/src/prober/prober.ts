/**
 * One probe run from a probe spec (the kubelet's prober.runProbe): resolves host (the pod IP unless the
 * handler names one) and port (a number, or a name the container declares), then calls the runner.
 * A run never takes longer than timeoutSeconds + a small backstop, whatever the runner does.
 */
import type { V1Container, V1HTTPGetAction, V1PodStatus, V1Probe } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import { PROBE_DEFAULTS, type HttpProbeRequest, type ProbeRunner, type RunOutcome } from './types.ts';

/** Extra time a runner gets past timeoutSeconds before the worker gives up on it. */
export const RUN_BACKSTOP_MS = 2000;

export type PortResult = { ok: true; port: number } | { ok: false; reason: string };

/** A port by number or by a name the container declares (pkg/probe ResolveContainerPort). */
export function resolveContainerPort(port: number | string | undefined, container: V1Container): PortResult {
  let n: number;
  if (typeof port === 'number') n = port;
  else if (typeof port === 'string' && port !== '') {
    const found = (container.ports ?? []).find((p) => p.name === port);
    if (!found) return { ok: false, reason: `port "${port}" not found` };
    n = found.containerPort;
  } else return { ok: false, reason: `intOrString had no kind: ${JSON.stringify(port ?? null)}` };
  if (Number.isInteger(n) && n > 0 && n < 65536) return { ok: true, port: n };
  return { ok: false, reason: `invalid port number: ${n}` };
}

/** The request an httpGet handler makes (shared with lifecycle hooks). */
export function httpRequestFor(
  h: V1HTTPGetAction,
  container: V1Container,
  podIP: string,
  timeoutS: number,
  purpose: 'probe' | 'lifecycle',
): { ok: true; req: HttpProbeRequest } | { ok: false; reason: string } {
  const port = resolveContainerPort(h.port as number | string | undefined, container);
  if (!port.ok) return port;
  const scheme = (h.scheme ?? 'HTTP').toLowerCase() === 'https' ? 'https' : 'http';
  const path = h.path ? (h.path.startsWith('/') ? h.path : `/${h.path}`) : '/';
  return {
    ok: true,
    req: {
      scheme,
      host: h.host || podIP,
      port: port.port,
      path,
      headers: (h.httpHeaders ?? []).map((x) => ({ name: x.name, value: x.value })),
      timeoutS,
      purpose,
    },
  };
}

/**
 * The output of a network probe that has nowhere to go: no host in the handler and no pod IP (the embedded
 * runtime gives isolated pods only a loopback interface; use hostNetwork there, or a CNI runtime).
 */
export const NO_POD_IP_OUTPUT = 'pod has no IP address to probe (the runtime reported none; the embedded runtime gives isolated pods an IP only as root with the CNI bridge/host-local plugins installed: else use hostNetwork)';

/** Runs the probe's handler once. `containerId` is the CRI id (no runtime prefix). */
export async function runProbe(
  runner: ProbeRunner,
  clock: Clock,
  probe: V1Probe,
  container: V1Container,
  status: V1PodStatus,
  containerId: string,
): Promise<RunOutcome> {
  const timeoutS = probe.timeoutSeconds || PROBE_DEFAULTS.timeoutSeconds;
  const podIP = status.podIP ?? status.podIPs?.[0]?.ip ?? '';
  let call: Promise<RunOutcome>;
  if (probe.exec) {
    call = runner.exec(containerId, expandStatic(probe.exec.command ?? [], container), timeoutS);
  } else if ((probe.httpGet || probe.tcpSocket || probe.grpc) && !podIP && !(probe.httpGet?.host || probe.tcpSocket?.host)) {
    return { status: 'failure', output: NO_POD_IP_OUTPUT };
  } else if (probe.httpGet) {
    const r = httpRequestFor(probe.httpGet, container, podIP, timeoutS, 'probe');
    if (!r.ok) return { status: 'unknown', output: '', error: r.reason };
    call = runner.http(r.req);
  } else if (probe.tcpSocket) {
    const port = resolveContainerPort(probe.tcpSocket.port as number | string | undefined, container);
    if (!port.ok) return { status: 'unknown', output: '', error: port.reason };
    call = runner.tcp(probe.tcpSocket.host || podIP, port.port, timeoutS);
  } else if (probe.grpc) {
    call = runner.grpc(podIP, probe.grpc.port, probe.grpc.service ?? '', timeoutS);
  } else {
    return { status: 'unknown', output: '', error: `missing probe handler for container ${container.name}` };
  }
  return withBackstop(clock, call, timeoutS * 1000 + RUN_BACKSTOP_MS);
}

async function withBackstop(clock: Clock, call: Promise<RunOutcome>, ms: number): Promise<RunOutcome> {
  let timer: { cancel(): void } | undefined;
  const late = new Promise<RunOutcome>((resolve) => {
    timer = clock.setTimeout(() => resolve({ status: 'failure', output: `probe did not complete within ${ms / 1000}s` }), ms);
  });
  const safe = call.catch((err: unknown) => ({ status: 'unknown' as const, output: '', error: errorText(err) }));
  try {
    return await Promise.race([safe, late]);
  } finally {
    timer?.cancel();
  }
}

/**
 * The kubelet's static command expansion for exec probes: `$(VAR)` becomes the value of an env var the
 * container sets literally (valueFrom is not resolved), unknown references stay as written, `$$` is `$`.
 */
export function expandStatic(cmd: string[], container: V1Container): string[] {
  const env = new Map<string, string>();
  for (const e of container.env ?? []) if (e.value !== undefined && !e.valueFrom) env.set(e.name, e.value);
  return cmd.map((arg) => expandOne(arg, env));
}

function expandOne(arg: string, env: Map<string, string>): string {
  let out = '';
  for (let i = 0; i < arg.length; i++) {
    const ch = arg[i];
    if (ch !== '$' || i + 1 >= arg.length) {
      out += ch;
      continue;
    }
    const next = arg[i + 1];
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const end = arg.indexOf(')', i + 2);
      if (end < 0) {
        out += arg.slice(i);
        break;
      }
      const name = arg.slice(i + 2, end);
      out += env.get(name) ?? `$(${name})`;
      i = end;
    } else out += ch;
  }
  return out;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
