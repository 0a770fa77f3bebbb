/**
 * RuntimeEventSource over CRI GetContainerEvents (containerd 1.7+, CRI-O, the embedded runtime): maps the
 * CRI event types onto RuntimeContainerEvent kinds, the sandbox id and the pod's uid from the event's podSandboxStatus.
 */
import type { ContainerEventResponse__Output, ContainerEventType__Output } from './proto-types.ts';
import type { RuntimeContainerEvent, RuntimeContainerEventKind, RuntimeEventSource } from './runtime-event-types.ts';
import { CriError, type CriClient } from './types.ts';

const KIND: Record<ContainerEventType__Output, RuntimeContainerEventKind> = {
  CONTAINER_CREATED_EVENT: 'created',
  CONTAINER_STARTED_EVENT: 'started',
  CONTAINER_STOPPED_EVENT: 'exited',
  CONTAINER_DELETED_EVENT: 'deleted',
};

/** One CRI event as a RuntimeContainerEvent (null for an event type this code does not know). */
export function fromCriEvent(ev: ContainerEventResponse__Output): RuntimeContainerEvent | null {
  const kind = KIND[ev.containerEventType] as RuntimeContainerEventKind | undefined;
  if (!kind || !ev.containerId) return null;
  const out: RuntimeContainerEvent = {
    kind,
    containerId: ev.containerId,
    time: Math.floor(ev.createdAt / 1e6),
    source: 'cri',
  };
  const sandboxId = ev.podSandboxStatus?.id;
  if (sandboxId) out.sandboxId = sandboxId;
  const podUid = ev.podSandboxStatus?.metadata?.uid;
  if (podUid) out.podUid = podUid;
  if (ev.podSandboxStatus && podUid) out.pod = { sandbox: ev.podSandboxStatus, containers: ev.containersStatuses };
  if (kind === 'exited') {
    const st = ev.containersStatuses.find((s) => s.id === ev.containerId);
    if (st && st.state === 'CONTAINER_EXITED') {
      out.exitCode = st.exitCode;
      out.exit = { exitCode: st.exitCode, finishedAt: Math.floor(st.finishedAt / 1e6), reason: st.reason, message: st.message };
    }
  }
  return out;
}

export function createCriEventSource(cri: CriClient): RuntimeEventSource {
  return {
    name: 'cri',
    async *subscribe(signal: AbortSignal): AsyncGenerator<RuntimeContainerEvent> {
      for await (const ev of cri.getContainerEvents({ signal })) {
        const out = fromCriEvent(ev);
        if (out) yield out;
      }
      if (signal.aborted) return;
      throw new CriError('UNAVAILABLE', `CRI GetContainerEvents stream at ${cri.endpoint} ended by the runtime`, {
        op: 'GetContainerEvents',
        endpoint: cri.endpoint,
      });
    },
  };
}
