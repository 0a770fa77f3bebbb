/**
 * Merges the pod sources into one stream of incremental updates, as the kubelet's podStorage in
 * PodConfigNotificationIncremental mode: each source reports SETs (or ADD/UPDATE/DELETE/REMOVE); PodConfig
 * diffs them against what it has from that source and emits REMOVE, ADD, UPDATE, DELETE, RECONCILE.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { EventBus } from '../events/types.ts';
import { canonicalJson } from '../util/hash.ts';
import { podNamespacedName } from '../api/pod-helpers.ts';
import { identityErrors } from './meta-validation.ts';
import { CONFIG_SEEN_ANNOTATION, type PodConfig, type PodOperation, type PodSourceName, type PodUpdate } from './types.ts';

export interface PodConfigDeps {
  clock: Clock;
  logger?: Logger;
  /** When given, every ADD/UPDATE/DELETE/REMOVE is published as a `podConfig` bus event. */
  bus?: EventBus;
}

type Diff = Record<'ADD' | 'UPDATE' | 'DELETE' | 'REMOVE' | 'RECONCILE', V1Pod[]>;

/** What counts as a real change: spec, labels, annotations (but config.seen), deletion fields. */
function semanticKey(p: V1Pod): string {
  const ann = { ...(p.metadata?.annotations ?? {}) };
  delete ann[CONFIG_SEEN_ANNOTATION];
  return canonicalJson({
    spec: p.spec,
    labels: p.metadata?.labels,
    annotations: ann,
    deletionTimestamp: p.metadata?.deletionTimestamp,
    deletionGracePeriodSeconds: p.metadata?.deletionGracePeriodSeconds,
  });
}

export class MergedPodConfig implements PodConfig {
  private readonly bySource = new Map<PodSourceName, Map<string, V1Pod>>();
  private readonly seen = new Set<PodSourceName>();
  private readonly listeners = new Set<(u: PodUpdate) => void>();

  constructor(private readonly deps: PodConfigDeps) {}

  channel(source: PodSourceName): (update: PodUpdate) => void {
    if (!this.bySource.has(source)) this.bySource.set(source, new Map());
    return (update) => this.merge(source, update);
  }

  subscribe(listener: (update: PodUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  sourcesReady(): boolean {
    return [...this.bySource.keys()].every((s) => this.seen.has(s));
  }

  seenAllSources(sources: readonly PodSourceName[]): boolean {
    return sources.every((s) => this.seen.has(s));
  }

  pods(source?: PodSourceName): V1Pod[] {
    if (source) return [...(this.bySource.get(source)?.values() ?? [])];
    return [...this.bySource.values()].flatMap((m) => [...m.values()]);
  }

  private merge(source: PodSourceName, update: PodUpdate): void {
    const store = this.bySource.get(source) ?? new Map<string, V1Pod>();
    this.bySource.set(source, store);
    const first = !this.seen.has(source);
    this.seen.add(source);
    const diff: Diff = { ADD: [], UPDATE: [], DELETE: [], REMOVE: [], RECONCILE: [] };
    const incoming = this.dedupe(source, update.pods);
    switch (update.op) {
      case 'SET': {
        const keep = new Set(incoming.map((p) => p.metadata?.uid ?? ''));
        for (const [uid, p] of store) {
          if (!keep.has(uid)) {
            store.delete(uid);
            diff.REMOVE.push(p);
          }
        }
        for (const p of incoming) this.upsert(store, p, diff);
        break;
      }
      case 'ADD':
      case 'UPDATE':
      case 'DELETE':
      case 'RECONCILE':
        for (const p of incoming) this.upsert(store, p, diff);
        break;
      case 'REMOVE':
        for (const p of incoming) {
          const uid = p.metadata?.uid ?? '';
          const old = store.get(uid);
          if (old) {
            store.delete(uid);
            diff.REMOVE.push(old);
          }
        }
        break;
    }
    this.emit(source, diff, first);
  }

  /**
   * Within one update, a second pod with the same full name is dropped (first wins); so is a pod whose UID
   * another source already has (a UID names the pod's worker and directories: the pod already there keeps it).
   */
  private dedupe(source: PodSourceName, pods: V1Pod[]): V1Pod[] {
    const names = new Set<string>();
    const out: V1Pod[] = [];
    for (const p of pods) {
      const full = podNamespacedName(p);
      const uid = p.metadata?.uid;
      if (!uid || names.has(full)) {
        this.deps.logger?.warn('dropping pod: duplicate name or no UID', { source, pod: full });
        continue;
      }
      // Names, namespaces and UIDs name directories on the node: whatever the source, they must be safe.
      const unsafe = identityErrors(p.metadata);
      if (unsafe.length > 0) {
        this.deps.logger?.warn('dropping pod: invalid identity', { source, errors: unsafe.join(', ') });
        continue;
      }
      const other = [...this.bySource].find(([s, store]) => s !== source && store.has(uid))?.[0];
      if (other) {
        this.deps.logger?.warn('dropping pod: its UID belongs to a pod of another source', { source, pod: full, uid, owner: other });
        continue;
      }
      names.add(full);
      out.push(p);
    }
    return out;
  }

  private upsert(store: Map<string, V1Pod>, incoming: V1Pod, diff: Diff): void {
    const uid = incoming.metadata?.uid ?? '';
    const old = store.get(uid);
    const pod = structuredClone(incoming);
    const meta = (pod.metadata ??= {});
    meta.annotations = { ...(meta.annotations ?? {}) };
    if (!old) {
      meta.annotations[CONFIG_SEEN_ANNOTATION] ??= new Date(this.deps.clock.now()).toISOString();
      store.set(uid, pod);
      diff.ADD.push(pod);
      return;
    }
    const seen = old.metadata?.annotations?.[CONFIG_SEEN_ANNOTATION];
    if (seen) meta.annotations[CONFIG_SEEN_ANNOTATION] = seen;
    if (semanticKey(old) !== semanticKey(pod)) {
      store.set(uid, pod);
      const deleting = pod.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp;
      (deleting ? diff.DELETE : diff.UPDATE).push(pod);
    } else if (canonicalJson(old.status) !== canonicalJson(pod.status)) {
      old.status = pod.status;
      diff.RECONCILE.push(old);
    }
  }

  private emit(source: PodSourceName, diff: Diff, first: boolean): void {
    const order: Array<Exclude<PodOperation, 'SET'>> = ['REMOVE', 'ADD', 'UPDATE', 'DELETE', 'RECONCILE'];
    let sent = false;
    for (const op of order) {
      const pods = diff[op];
      if (pods.length === 0) continue;
      // Listeners get copies: whatever they do to them cannot disturb the diff against the next SET.
      this.send({ op, pods: pods.map((p) => structuredClone(p)), source });
      if (op !== 'RECONCILE') sent = true;
      if (op !== 'RECONCILE') this.publish(op, pods, source);
    }
    // An empty ADD on a source's first report tells the kubelet the source is ready.
    if (first && !sent) this.send({ op: 'ADD', pods: [], source });
  }

  private send(u: PodUpdate): void {
    for (const l of [...this.listeners]) {
      try {
        l(u);
      } catch (err) {
        this.deps.logger?.error('pod config listener threw', { error: String(err), op: u.op });
      }
    }
  }

  private publish(op: 'ADD' | 'UPDATE' | 'DELETE' | 'REMOVE', pods: V1Pod[], source: PodSourceName): void {
    for (const p of pods) {
      this.deps.bus?.publish({
        type: 'podConfig',
        op,
        source,
        pod: { namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '', uid: p.metadata?.uid ?? '' },
      });
    }
  }
}
