/** Shared fixture for evented-PLEG tests: a scripted event source, recording metrics, a FakeClock setup. */
import { FakeClock } from '../../util/clock.ts';
import { nullLogger } from '../../util/logger.ts';
import { StatusCache } from '../../container/cache.ts';
import { FakeContainerRuntime } from '../../container/testing/fake-container-runtime.ts';
import type { ContainerState, RuntimePod } from '../../container/types.ts';
import type { ContainerStatus__Output, PodSandboxStatus__Output } from '../../cri/proto-types.ts';
import { CONTAINER_TERMINATION_MESSAGE_PATH_ANNOTATION } from '../../container/labels.ts';
import type { ContainerExit, EventSourceDetection, RuntimeContainerEvent, RuntimeEventSource } from '../../cri/runtime-events.ts';
import { GenericPleg } from '../generic-pleg.ts';
import { EventedPleg, type EventedPlegDeps } from '../evented-pleg.ts';
import type { PlegMetrics } from '../types.ts';

export function pod(uid: string, containers: Array<[string, ContainerState]>): RuntimePod {
  return {
    uid,
    name: `pod-${uid}`,
    namespace: 'default',
    sandboxes: [{ id: { type: 'fake', id: `sb-${uid}` }, state: 'ready', createdAt: 0, attempt: 0 }],
    containers: containers.map(([id, state]) => ({ id: { type: 'fake', id }, name: `n-${id}`, image: 'i', imageRef: 'i', hash: '1', state, createdAt: 0 })),
  };
}

const CRI_STATE: Record<ContainerState, ContainerStatus__Output['state']> = {
  created: 'CONTAINER_CREATED', running: 'CONTAINER_RUNNING', exited: 'CONTAINER_EXITED', unknown: 'CONTAINER_UNKNOWN',
};

/**
 * A pod as a CRI event carries it: its sandbox's status and every container's (`pod`'s names and ids). `message`:
 * each container's termination-message file (the annotated path, mounted from `hostPath`).
 */
export function eventPod(uid: string, containers: Array<[string, ContainerState, number?]>, message?: { path: string; hostPath: string }): NonNullable<RuntimeContainerEvent['pod']> {
  const sandbox = {
    id: `sb-${uid}`, state: 'SANDBOX_READY', createdAt: 0, network: { ip: '10.0.0.7', additionalIps: [] },
    metadata: { name: `pod-${uid}`, namespace: 'default', uid, attempt: 0 }, labels: {}, annotations: {},
  } as unknown as PodSandboxStatus__Output;
  const statuses = containers.map(([id, state, exitCode = 0]) => ({
    id, state: CRI_STATE[state], createdAt: 0, startedAt: 0, finishedAt: state === 'exited' ? 5e9 : 0, exitCode,
    reason: state === 'exited' ? 'Error' : '', message: '', metadata: { name: `n-${id}`, attempt: 0 }, labels: {},
    annotations: { 'io.kubernetes.container.hash': '1', ...(message ? { [CONTAINER_TERMINATION_MESSAGE_PATH_ANNOTATION]: message.path } : {}) },
    mounts: message ? [{ containerPath: message.path, hostPath: message.hostPath }] : [],
    image: { image: 'i' }, imageRef: 'i', imageId: 'i', logPath: '',
  })) as unknown as ContainerStatus__Output[];
  return { sandbox, containers: statuses };
}

/** A scripted event source: push events, break the open stream, count subscriptions; optionally gate settle. */
export class ScriptedSource implements RuntimeEventSource {
  readonly name = 'scripted';
  subscriptions = 0;
  /** Set to make the source lag CRI: settle(ev) waits for `settleGate`. */
  settle?: (ev: RuntimeContainerEvent, signal: AbortSignal) => Promise<unknown>;
  private queue: Array<RuntimeContainerEvent | Error> = [];
  private wake: (() => void) | undefined;
  push(e: RuntimeContainerEvent | Error): void {
    this.queue.push(e);
    this.wake?.();
  }
  async *subscribe(signal: AbortSignal): AsyncGenerator<RuntimeContainerEvent> {
    this.subscriptions++;
    const onAbort = () => this.wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        const next = this.queue.shift();
        if (next instanceof Error) throw next;
        if (next) {
          yield next;
          continue;
        }
        await new Promise<void>((r) => (this.wake = r));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

export function recordingMetrics(): PlegMetrics & { counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  const add = (k: string) => (n = 1) => void (counts[k] = (counts[k] ?? 0) + n);
  const obs = (k: string) => ({ observe: () => add(k)() });
  return {
    counts,
    plegRelistDuration: obs('relistDuration'),
    plegRelistInterval: obs('relistInterval'),
    plegDiscardEvents: { inc: add('discard') },
    plegLastSeen: { set: () => add('lastSeen')() },
    eventedPlegConnectionErrors: { inc: add('connErrors') },
    eventedPlegConnections: { inc: add('connections') },
    eventedPlegConnectionLatency: obs('latency'),
  };
}

export function setup(detection?: (src: ScriptedSource) => EventSourceDetection, extra: Pick<EventedPlegDeps, 'generatePodStatus' | 'syncingPod'> = {}) {
  const clock = new FakeClock();
  const rt = new FakeContainerRuntime();
  const cache = new StatusCache();
  const metrics = recordingMetrics();
  const generic = new GenericPleg({ runtime: rt, cache, clock, logger: nullLogger, metrics });
  const src = new ScriptedSource();
  const detect = async (): Promise<EventSourceDetection> =>
    detection ? detection(src) : { ok: true, source: src, message: 'scripted' };
  const pleg = new EventedPleg({ generic, cache, clock, logger: nullLogger, detect, metrics, ...extra });
  const ev = (kind: RuntimeContainerEvent['kind'], id: string, extra: Partial<RuntimeContainerEvent> = {}): RuntimeContainerEvent => ({
    kind,
    containerId: id,
    time: clock.now(),
    source: 'cri',
    ...extra,
  });
  const exit = (exitCode: number, reason = 'Error'): ContainerExit => ({ exitCode, finishedAt: clock.now(), reason, message: '' });
  const seen = () => pleg.watch().drain().map((e) => `${e.uid}/${e.type}/${e.data}`);
  return { clock, rt, cache, metrics, generic, src, pleg, ev, exit, seen };
}
