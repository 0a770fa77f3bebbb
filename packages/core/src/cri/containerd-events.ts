/**
 * RuntimeEventSource over containerd's own event service (`containerd.services.events.v1.Events/Subscribe`
 * on the containerd socket), for containerd 1.6 whose CRI has no GetContainerEvents.
 *
 * Mapping (containerd topic → kind): /containers/create → created, /tasks/start → started, /tasks/exit of
 * the init process → exited (exit code, exit time, and the terminated state containerd's CRI will report:
 * reason OOMKilled after a /tasks/oom, else Completed for 0 and Error otherwise), /tasks/delete → exited only when no exit was seen for
 * that start (a shim that died publishes both), /tasks/oom → oom, /containers/delete → deleted. Exec'd
 * processes (TaskExit with id ≠ container_id) and other topics are dropped. In k8s.io both sandbox (pause)
 * and app container tasks appear; both pass with containerId = the task's container_id.
 */
import * as grpc from '@grpc/grpc-js';
import {
  CONTAINERD_NAMESPACE_HEADER,
  decodeContainerdAny,
  loadContainerdEventsPackage,
} from '../../../../proto/containerd/load.ts';
import type { Envelope__Output } from '../../../../proto/containerd/gen/containerd/services/events/v1/Envelope.ts';
import type { TaskDelete__Output } from '../../../../proto/containerd/gen/containerd/events/TaskDelete.ts';
import type { TaskExit__Output } from '../../../../proto/containerd/gen/containerd/events/TaskExit.ts';
import type { Timestamp__Output } from '../../../../proto/containerd/gen/google/protobuf/Timestamp.ts';
import type { Logger } from '../util/logger.ts';
import { statusName, toGrpcTarget } from './errors.ts';
import type { RuntimeContainerEvent, RuntimeEventSource } from './runtime-event-types.ts';
import type { SandboxResolver } from './sandbox-resolver.ts';
import { CriError } from './types.ts';

/** The containerd namespace the CRI plugin uses. */
export const K8S_NAMESPACE = 'k8s.io';
const OP = 'containerd.services.events.v1.Events/Subscribe';

export interface ContainerdEventSourceOptions {
  /** containerd namespace to watch (default k8s.io). */
  namespace?: string;
  /** Subscribe filters (any-of); default: this namespace's /tasks/ and /containers/ topics. */
  filters?: string[];
  logger?: Logger;
  /** Fills sandboxId and podUid (e.g. createCriSandboxResolver(cri)); without it they stay unset. */
  resolveSandboxId?: SandboxResolver;
}

export function defaultContainerdFilters(namespace: string): string[] {
  return [`namespace==${namespace},topic~="^/tasks/"`, `namespace==${namespace},topic~="^/containers/"`];
}

/** Remembers which containers already had their exit reported since their last start, and which hit OOM. */
export class ExitTracker {
  private exited = new Set<string>();
  private oomed = new Set<string>();
  started(id: string): void {
    this.exited.delete(id);
    this.oomed.delete(id);
  }
  oom(id: string): void {
    this.oomed.add(id);
  }
  /** The reason containerd's CRI gives an exit: OOMKilled after a TaskOOM, else Completed / Error by code. */
  reason(id: string, exitCode: number): string {
    return this.oomed.has(id) ? 'OOMKilled' : exitCode === 0 ? 'Completed' : 'Error';
  }
  /** True the first time after a start (or ever), false for a repeat. */
  markExited(id: string): boolean {
    if (this.exited.has(id)) return false;
    this.exited.add(id);
    return true;
  }
  forget(id: string): void {
    this.exited.delete(id);
    this.oomed.delete(id);
  }
  get size(): number {
    return this.exited.size;
  }
}

export function timestampMs(ts: Timestamp__Output | null | undefined): number | undefined {
  if (!ts || (ts.seconds === 0 && ts.nanos === 0)) return undefined;
  return ts.seconds * 1000 + Math.floor(ts.nanos / 1e6);
}

type Payload = { containerId?: string; id?: string };

/** One envelope as a RuntimeContainerEvent, or null when it is not a container lifecycle step. */
export function envelopeToEvent(env: Envelope__Output, namespace: string, exits: ExitTracker): RuntimeContainerEvent | null {
  if (env.namespace !== namespace || !env.event) return null;
  const decoded = decodeContainerdAny(env.event.type_url, env.event.value);
  if (!decoded) return null;
  const time = timestampMs(env.timestamp) ?? 0;
  const data = decoded.data as Payload;
  const base = (kind: RuntimeContainerEvent['kind'], containerId: string | undefined, at = time) =>
    containerId ? ({ kind, containerId, time: at, source: 'containerd' } as RuntimeContainerEvent) : null;
  switch (decoded.type) {
    case 'containerd.events.ContainerCreate':
      return base('created', data.id);
    case 'containerd.events.TaskStart':
      if (data.containerId) exits.started(data.containerId);
      return base('started', data.containerId);
    case 'containerd.events.TaskExit':
    case 'containerd.events.TaskDelete': {
      const t = decoded.data as TaskExit__Output | TaskDelete__Output;
      if (!t.containerId || (t.id !== '' && t.id !== t.containerId)) return null; // an exec'd process
      if (!exits.markExited(t.containerId)) return null;
      const ev = base('exited', t.containerId, timestampMs(t.exitedAt) ?? time);
      if (ev) {
        ev.exitCode = t.exitStatus;
        ev.exit = { exitCode: t.exitStatus, finishedAt: ev.time, reason: exits.reason(t.containerId, t.exitStatus), message: '' };
      }
      return ev;
    }
    case 'containerd.events.TaskOOM':
      if (data.containerId) exits.oom(data.containerId);
      return base('oom', data.containerId);
    case 'containerd.events.ContainerDelete':
      if (data.id) exits.forget(data.id);
      return base('deleted', data.id);
    default:
      return null;
  }
}

function streamError(err: unknown, endpoint: string): CriError {
  const e = err as Partial<grpc.ServiceError>;
  const code = statusName(e.code);
  const details = e.details ?? (err instanceof Error ? err.message : String(err));
  const hint = code === 'UNAVAILABLE' ? ': is containerd running?' : '';
  return new CriError(code, `containerd event stream at ${endpoint} failed (${code}): ${details}${hint}`, {
    op: OP,
    endpoint,
    details,
    cause: err,
  });
}

/** A source reading containerd's event stream at `endpoint` (the containerd socket, as for CRI). */
export function createContainerdEventSource(endpoint: string, opts: ContainerdEventSourceOptions = {}): RuntimeEventSource {
  const namespace = opts.namespace ?? K8S_NAMESPACE;
  const filters = opts.filters ?? defaultContainerdFilters(namespace);
  const log = opts.logger?.child('containerd-events', { endpoint, namespace });

  async function* subscribe(signal: AbortSignal): AsyncGenerator<RuntimeContainerEvent> {
    if (signal.aborted) return;
    const { Events } = loadContainerdEventsPackage().containerd.services.events.v1;
    const client = new Events(toGrpcTarget(endpoint), grpc.credentials.createInsecure());
    const md = new grpc.Metadata({ waitForReady: false });
    md.set(CONTAINERD_NAMESPACE_HEADER, namespace);
    const call = client.Subscribe({ filters }, md);
    const onAbort = () => call.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    const exits = new ExitTracker();
    try {
      for await (const env of call as AsyncIterable<Envelope__Output>) {
        let ev: RuntimeContainerEvent | null;
        try {
          ev = envelopeToEvent(env, namespace, exits);
        } catch (err) {
          log?.warn('undecodable containerd event dropped', { topic: env.topic, error: String(err) });
          continue;
        }
        if (!ev) continue;
        const found = await opts.resolveSandboxId?.(ev);
        if (found) ev.sandboxId = found.sandboxId;
        if (found?.podUid) ev.podUid = found.podUid;
        yield ev;
      }
    } catch (err) {
      if (signal.aborted) return;
      throw streamError(err, endpoint);
    } finally {
      signal.removeEventListener('abort', onAbort);
      call.cancel();
      client.close();
    }
    if (signal.aborted) return;
    throw new CriError('UNAVAILABLE', `containerd event stream at ${endpoint} ended by containerd`, { op: OP, endpoint });
  }

  return { name: 'containerd', subscribe };
}
