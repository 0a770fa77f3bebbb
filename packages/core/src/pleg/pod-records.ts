/**
 * The PLEG's memory of every pod: the runtime view it last published events for (`old`), the latest listing
 * (`current`), and the exits it heard from runtime events before the runtime's own status reported them.
 *
 * Both the relist and the per-pod event path go through `commit`, which diffs against `old` and moves `old`
 * forward in one synchronous step, so however the two interleave a transition is published exactly once. A
 * container id that exited never runs again (a restart is a new container), so an exit heard from an event
 * overrides a runtime listing / status that still says running (containerd's CRI store lags its TaskExit).
 */
import type { ContainerExit } from '../cri/runtime-events.ts';
import type { ContainerState, PodStatus, RuntimeContainer, RuntimePod } from '../container/types.ts';
import type { PlegEventType } from '../events/types.ts';
import type { PodLifecycleEvent } from './types.ts';

/** PLEG's view of a container: runtime 'created' counts as unknown, as upstream. */
type PlegState = 'running' | 'exited' | 'unknown' | 'non-existent';

interface PodRecord {
  old?: RuntimePod;
  current?: RuntimePod;
  /** Bumped by every commit: a relist skips pods committed since it listed (it holds older news). */
  version: number;
}

const LIVE: ReadonlySet<ContainerState> = new Set(['running', 'created', 'unknown']);

export class PodRecords {
  private readonly records = new Map<string, PodRecord>();
  /** Container id → its exit as a runtime event told it (until the runtime's status agrees). */
  private readonly exits = new Map<string, ContainerExit & { heardAt: number }>();

  /** Every known pod's version: taken before a listing is asked for, it tells which pods were committed since. */
  versions(): Map<string, number> {
    return new Map([...this.records].map(([uid, rec]) => [uid, rec.version]));
  }

  /** Stores a full listing as every pod's `current` (exits applied). */
  setCurrent(pods: RuntimePod[]): void {
    for (const rec of this.records.values()) rec.current = undefined;
    for (const p of pods) {
      const rec = this.records.get(p.uid) ?? { version: 0 };
      rec.current = this.withExits(p);
      this.records.set(p.uid, rec);
    }
  }

  /** Pods whose `current` differs from `old`, with the events that would publish. */
  changed(): Map<string, PodLifecycleEvent[]> {
    const out = new Map<string, PodLifecycleEvent[]>();
    for (const [uid, rec] of this.records) {
      const events = computePodEvents(uid, rec.old, rec.current);
      if (events.length > 0) out.set(uid, events);
    }
    return out;
  }

  current(uid: string): RuntimePod | undefined {
    return this.records.get(uid)?.current;
  }

  version(uid: string): number {
    return this.records.get(uid)?.version ?? 0;
  }

  /** The pod last seen holding this container or sandbox id. */
  uidOf(id: string): string | undefined {
    for (const [uid, rec] of this.records) {
      for (const p of [rec.old, rec.current]) {
        if (p?.containers.some((c) => c.id.id === id) || p?.sandboxes.some((s) => s.id.id === id)) return uid;
      }
    }
    return undefined;
  }

  /**
   * Moves the pod's published view to `pod` (undefined = gone) and returns the transitions from the previous
   * one. `pod` is the listing's `current` (relist) or the pod as an inspection / event showed it.
   */
  commit(uid: string, pod: RuntimePod | undefined): { events: PodLifecycleEvent[]; next: RuntimePod | undefined; prev: RuntimePod | undefined } {
    const rec = this.records.get(uid) ?? { version: 0 };
    const prev = rec.old;
    const next = pod ? this.withExits(pod) : undefined;
    const events = computePodEvents(uid, prev, next);
    rec.version++;
    rec.old = next;
    rec.current = next;
    if (next) this.records.set(uid, rec);
    else this.records.delete(uid);
    for (const id of idsOf(prev)) if (!idsOf(next).includes(id)) this.exits.delete(id);
    return { events, next, prev };
  }

  /**
   * Records an exit heard from the runtime and returns the pod as published with that container exited (or
   * undefined when the pod does not hold the container, or it already exited).
   */
  exited(uid: string, containerId: string, exit: ContainerExit, heardAt: number): RuntimePod | undefined {
    const pod = this.records.get(uid)?.old;
    const c = pod?.containers.find((x) => x.id.id === containerId);
    if (!pod || !c) return undefined;
    this.exits.set(containerId, { ...exit, heardAt });
    if (c.state === 'exited') return undefined;
    return this.withExits(pod);
  }

  /** Forgets an exit (the container was deleted). */
  forget(containerId: string): void {
    this.exits.delete(containerId);
  }

  /** `status` with every still-live container we heard exit shown exited; exits the runtime now reports are forgotten. */
  applyExits(status: PodStatus): PodStatus {
    if (this.exits.size === 0) return status;
    let out = status;
    status.containerStatuses.forEach((c, i) => {
      const exit = this.exits.get(c.id.id);
      if (!exit) return;
      if (!LIVE.has(c.state)) {
        this.exits.delete(c.id.id);
        return;
      }
      if (out === status) out = { ...status, containerStatuses: [...status.containerStatuses] };
      const { heardAt, ...e } = exit;
      out.containerStatuses[i] = { ...c, state: 'exited', ...e, exitHeardAt: heardAt };
    });
    return out;
  }

  /** Containers of `status` with an exit heard from an event that the status (a runtime read) now shows. */
  confirmedExits(status: PodStatus): string[] {
    return status.containerStatuses.filter((c) => this.exits.has(c.id.id) && !LIVE.has(c.state)).map((c) => c.id.id);
  }

  get pendingExits(): number {
    return this.exits.size;
  }

  private withExits(p: RuntimePod): RuntimePod {
    if (this.exits.size === 0 || !p.containers.some((c) => this.exits.has(c.id.id) && LIVE.has(c.state))) return p;
    const containers: RuntimeContainer[] = p.containers.map((c) => (this.exits.has(c.id.id) && LIVE.has(c.state) ? { ...c, state: 'exited' } : c));
    return { ...p, containers };
  }
}

/** The name of container `id` in the first of `pods` that holds it. */
export function containerNameIn(id: string, ...pods: Array<RuntimePod | undefined>): string | undefined {
  for (const p of pods) {
    const c = p?.containers.find((x) => x.id.id === id);
    if (c) return c.name;
  }
  return undefined;
}

/** The runtime view of a pod from its detailed status (undefined when the runtime holds nothing of it). */
export function podFromStatus(s: PodStatus): RuntimePod | undefined {
  if (s.containerStatuses.length === 0 && s.sandboxStatuses.length === 0) return undefined;
  const type = s.containerStatuses[0]?.id.type ?? '';
  return {
    uid: s.uid,
    name: s.name,
    namespace: s.namespace,
    containers: s.containerStatuses.map((c) => ({ id: c.id, name: c.name, image: c.image, imageRef: c.imageRef, hash: c.hash, state: c.state, createdAt: c.createdAt })),
    sandboxes: s.sandboxStatuses.map((sb) => ({ id: { type, id: sb.id }, state: sb.state, createdAt: sb.createdAt, attempt: sb.attempt })),
  };
}

/** `status` holds every sandbox and container of `known` (a runtime event's view of a pod leaves out nothing known of it). */
export function showsAll(status: PodStatus, known: RuntimePod | undefined): boolean {
  const shown = new Set(idsOf(podFromStatus(status)));
  return idsOf(known).every((id) => shown.has(id));
}

function idsOf(p: RuntimePod | undefined): string[] {
  return [...(p?.containers ?? []).map((c) => c.id.id), ...(p?.sandboxes ?? []).map((s) => s.id.id)];
}

/** Events for every container (and sandbox) of one pod between two views. */
export function computePodEvents(uid: string, oldPod: RuntimePod | undefined, newPod: RuntimePod | undefined): PodLifecycleEvent[] {
  const ids: string[] = [];
  for (const p of [oldPod, newPod]) for (const id of idsOf(p)) if (!ids.includes(id)) ids.push(id);
  const out: PodLifecycleEvent[] = [];
  for (const id of ids) {
    for (const type of generateEvents(stateOf(oldPod, id), stateOf(newPod, id))) out.push({ uid, type, data: id });
  }
  return out;
}

function stateOf(pod: RuntimePod | undefined, id: string): PlegState {
  if (!pod) return 'non-existent';
  const c = pod.containers.find((x) => x.id.id === id);
  if (c) return c.state === 'running' ? 'running' : c.state === 'exited' ? 'exited' : 'unknown';
  const s = pod.sandboxes.find((x) => x.id.id === id);
  if (s) return s.state === 'ready' ? 'running' : 'exited';
  return 'non-existent';
}

export function generateEvents(oldState: PlegState, newState: PlegState): PlegEventType[] {
  if (oldState === newState) return [];
  switch (newState) {
    case 'running':
      return ['ContainerStarted'];
    case 'exited':
      return ['ContainerDied'];
    case 'unknown':
      return ['ContainerChanged'];
    case 'non-existent':
      return oldState === 'exited' ? ['ContainerRemoved'] : ['ContainerDied', 'ContainerRemoved'];
  }
}
