/** Recording fakes for the prober's seams: runner (scripted per exec command), status, sink, bus. */
import type { V1Container, V1Pod, V1PodStatus, V1Probe } from '@kubernetes/client-node';
import type {
  HttpProbeRequest,
  ProbeBusEventInput,
  ProbeBusPublisher,
  ProbeRunner,
  ProbeStatusProvider,
  ProbeStatusSink,
  RunOutcome,
} from '../types.ts';

export type RunnerCall =
  | { kind: 'exec'; containerId: string; cmd: string[]; timeoutS: number }
  | { kind: 'http'; req: HttpProbeRequest }
  | { kind: 'tcp'; host: string; port: number; timeoutS: number }
  | { kind: 'grpc'; host: string; port: number; service: string; timeoutS: number };

const OK: RunOutcome = { status: 'success', output: '' };

/**
 * Exec outcomes are scripted per command name (cmd[0]): each run takes the next scripted outcome, the last
 * one repeats; 'hang' never resolves. Other handlers answer `fallback`.
 */
export class FakeProbeRunner implements ProbeRunner {
  readonly calls: RunnerCall[] = [];
  readonly scripts = new Map<string, Array<RunOutcome | 'hang'>>();
  fallback: RunOutcome = OK;

  script(cmd: string, outcomes: Array<RunOutcome | 's' | 'f' | 'hang'>): void {
    this.scripts.set(
      cmd,
      outcomes.map((o) => (o === 's' ? OK : o === 'f' ? { status: 'failure', output: `${cmd} failed` } : o)),
    );
  }

  runs(cmd: string): number {
    return this.calls.filter((c) => c.kind === 'exec' && c.cmd[0] === cmd).length;
  }

  exec(containerId: string, cmd: string[], timeoutS: number): Promise<RunOutcome> {
    this.calls.push({ kind: 'exec', containerId, cmd, timeoutS });
    const q = this.scripts.get(cmd[0] ?? '') ?? [];
    const o = q.length > 1 ? q.shift() : q[0];
    if (o === 'hang') return new Promise<RunOutcome>(() => {});
    return Promise.resolve(o ?? OK);
  }

  http(req: HttpProbeRequest): Promise<RunOutcome> {
    this.calls.push({ kind: 'http', req });
    return Promise.resolve(this.fallback);
  }

  tcp(host: string, port: number, timeoutS: number): Promise<RunOutcome> {
    this.calls.push({ kind: 'tcp', host, port, timeoutS });
    return Promise.resolve(this.fallback);
  }

  grpc(host: string, port: number, service: string, timeoutS: number): Promise<RunOutcome> {
    this.calls.push({ kind: 'grpc', host, port, service, timeoutS });
    return Promise.resolve(this.fallback);
  }
}

/** Pod statuses by UID, with helpers to put a container in a state. */
export class FakeStatusProvider implements ProbeStatusProvider {
  readonly statuses = new Map<string, V1PodStatus>();

  getPodStatus(podUid: string): V1PodStatus | undefined {
    return this.statuses.get(podUid);
  }

  running(podUid: string, name: string, id: string, startedAtMs: number, podIP = '10.88.0.2'): void {
    const s = this.statuses.get(podUid) ?? { phase: 'Running', podIP, containerStatuses: [] };
    const list = (s.containerStatuses ?? []).filter((c) => c.name !== name);
    list.push({
      name,
      containerID: `containerd://${id}`,
      image: 'img',
      imageID: 'img',
      ready: false,
      restartCount: 0,
      state: { running: { startedAt: new Date(startedAtMs) } },
    });
    s.containerStatuses = list;
    this.statuses.set(podUid, s);
  }

  terminated(podUid: string, name: string, exitCode: number): void {
    const c = this.statuses.get(podUid)?.containerStatuses?.find((x) => x.name === name);
    if (c) c.state = { terminated: { exitCode, finishedAt: new Date(0) } };
  }
}

export class RecordingStatusSink implements ProbeStatusSink {
  readonly calls: Array<{ kind: 'ready' | 'started'; podUid: string; container: string; value: boolean }> = [];
  setContainerReadiness(podUid: string, container: string, value: boolean): void {
    this.calls.push({ kind: 'ready', podUid, container, value });
  }
  setContainerStartup(podUid: string, container: string, value: boolean): void {
    this.calls.push({ kind: 'started', podUid, container, value });
  }
}

export class RecordingBus implements ProbeBusPublisher {
  readonly events: ProbeBusEventInput[] = [];
  publish(e: ProbeBusEventInput): unknown {
    this.events.push(e);
    return e;
  }
}

/** An exec probe whose command is its type name (so FakeProbeRunner scripts it per type). */
export function execProbe(cmd: string, extra: Partial<V1Probe> = {}): V1Probe {
  return { exec: { command: [cmd] }, periodSeconds: 1, ...extra };
}

export function makePod(containers: V1Container[], extra: { uid?: string; restartPolicy?: string; grace?: number } = {}): V1Pod {
  return {
    metadata: { name: 'web', namespace: 'default', uid: extra.uid ?? 'uid-1' },
    spec: { containers, restartPolicy: extra.restartPolicy ?? 'Always', terminationGracePeriodSeconds: extra.grace ?? 30 },
  };
}
