/** A worker's public view (ProbeWorkerInfo) for the console's probe table. */
import type { V1Probe } from '@kubernetes/client-node';
import { PROBE_DEFAULTS, type ProbeResult, type ProbeWorkerInfo } from './types.ts';
import type { ProbeWorker } from './worker.ts';

export interface LastRun {
  time: string;
  result: ProbeResult;
  output: string;
  latencyMs: number;
}

function handlerOf(p: V1Probe): Pick<ProbeWorkerInfo, 'handler' | 'target'> {
  if (p.exec) return { handler: 'exec', target: (p.exec.command ?? []).join(' ') };
  if (p.httpGet) {
    const h = p.httpGet;
    return { handler: 'httpGet', target: `${(h.scheme ?? 'HTTP').toLowerCase()}://${h.host ?? ''}:${String(h.port)}${h.path ?? '/'}` };
  }
  if (p.tcpSocket) return { handler: 'tcpSocket', target: `${p.tcpSocket.host ?? ''}:${String(p.tcpSocket.port)}` };
  return { handler: 'grpc', target: `:${p.grpc?.port ?? 0}${p.grpc?.service ? ` service=${p.grpc.service}` : ''}` };
}

export function workerInfo(w: ProbeWorker, effective: ProbeResult | undefined, lastRun: LastRun | undefined): ProbeWorkerInfo {
  const p = w.probe;
  const m = w.pod.metadata;
  return {
    pod: { namespace: m?.namespace ?? 'default', name: m?.name ?? '', uid: w.podUid },
    container: w.container.name,
    probeType: w.probeType,
    ...handlerOf(p),
    initialDelaySeconds: p.initialDelaySeconds ?? PROBE_DEFAULTS.initialDelaySeconds,
    periodSeconds: p.periodSeconds || PROBE_DEFAULTS.periodSeconds,
    timeoutSeconds: p.timeoutSeconds || PROBE_DEFAULTS.timeoutSeconds,
    successThreshold: p.successThreshold || PROBE_DEFAULTS.successThreshold,
    failureThreshold: p.failureThreshold || PROBE_DEFAULTS.failureThreshold,
    containerId: w.containerId,
    ...(effective !== undefined ? { effective } : {}),
    ...(w.lastResult !== undefined ? { lastResult: w.lastResult } : {}),
    consecutive: w.resultRun,
    onHold: w.onHold,
    ...(lastRun ? { lastRun } : {}),
  };
}
