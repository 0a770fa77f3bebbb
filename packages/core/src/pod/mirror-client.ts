/**
 * Mirror pods: the API server copies of static pods (the kubelet's mirror client + syncPod's mirror handling +
 * deleteOrphanedMirrorPods). A mirror carries kubernetes.io/config.mirror = the static pod's config hash and
 * is owned by the Node. A static pod without a mirror gets one; a mirror that is stale (other hash), being
 * deleted, or whose static pod is gone is deleted with a uid precondition (and recreated if still wanted).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import type { Logger } from '../util/logger.ts';
import { isMirrorPod, podNamespacedName } from '../api/pod-helpers.ts';
import { CONFIG_HASH_ANNOTATION, CONFIG_MIRROR_ANNOTATION } from '../config/types.ts';

export interface MirrorDeps {
  client: ApiClient;
  logger: Logger;
  nodeName: string;
  nodeUid: () => string | undefined;
}

export function buildMirrorPod(pod: V1Pod, nodeName: string, nodeUid: string | undefined): V1Pod {
  const meta = pod.metadata ?? {};
  const annotations = { ...(meta.annotations ?? {}) };
  annotations[CONFIG_MIRROR_ANNOTATION] = annotations[CONFIG_HASH_ANNOTATION] ?? meta.uid ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: meta.name,
      namespace: meta.namespace ?? 'default',
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      annotations,
      ...(nodeUid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid, controller: true }] } : {}),
    },
    spec: { ...structuredClone(pod.spec ?? { containers: [] }), nodeName },
  };
}

/** The mirror belongs to this version of the static pod (same full name and hash). */
export function isMirrorPodOf(mirror: V1Pod, pod: V1Pod): boolean {
  if (podNamespacedName(mirror) !== podNamespacedName(pod)) return false;
  const hash = pod.metadata?.annotations?.[CONFIG_HASH_ANNOTATION] ?? pod.metadata?.uid;
  return mirror.metadata?.annotations?.[CONFIG_MIRROR_ANNOTATION] === hash;
}

export class MirrorClient {
  constructor(private readonly deps: MirrorDeps) {}

  async create(pod: V1Pod): Promise<boolean> {
    const m = buildMirrorPod(pod, this.deps.nodeName, this.deps.nodeUid());
    const r = await this.deps.client.request({ method: 'POST', path: `/api/v1/namespaces/${m.metadata?.namespace}/pods`, body: m });
    if (r.ok || r.reason === 'AlreadyExists') return true;
    this.deps.logger.warn('failed creating a mirror pod', { pod: podNamespacedName(pod), reason: r.reason, err: r.message });
    return false;
  }

  async delete(mirror: V1Pod): Promise<boolean> {
    const meta = mirror.metadata ?? {};
    const r = await this.deps.client.request({
      method: 'DELETE',
      path: `/api/v1/namespaces/${meta.namespace ?? 'default'}/pods/${meta.name}`,
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, ...(meta.uid ? { preconditions: { uid: meta.uid } } : {}) },
    });
    if (r.ok || r.reason === 'NotFound' || r.reason === 'Conflict') return true;
    this.deps.logger.warn('failed deleting a mirror pod', { pod: podNamespacedName(mirror), reason: r.reason, err: r.message });
    return false;
  }

  /**
   * One pass: `statics` are the desired static pods, `mirrors` the mirror pods the API source reported;
   * orphaned mirrors are deleted only when `sourcesReady`.
   * Returns what it did (tests).
   */
  async reconcile(
    statics: V1Pod[],
    mirrors: V1Pod[],
    terminated: (pod: V1Pod) => boolean,
    sourcesReady = true,
  ): Promise<{ created: string[]; deleted: string[] }> {
    const out = { created: [] as string[], deleted: [] as string[] };
    const byName = new Map(mirrors.filter(isMirrorPod).map((m) => [podNamespacedName(m), m]));
    const wanted = new Set<string>();
    for (const pod of statics) {
      const full = podNamespacedName(pod);
      wanted.add(full);
      const m = byName.get(full);
      if (m && (m.metadata?.deletionTimestamp || !isMirrorPodOf(m, pod))) {
        if (await this.delete(m)) out.deleted.push(full);
        continue;
      }
      if (!m && !terminated(pod) && (await this.create(pod))) out.created.push(full);
    }
    // Orphans only once every source has reported (a static pod may not be known yet after a restart).
    if (!sourcesReady) return out;
    for (const [full, m] of byName) {
      if (!wanted.has(full) && !m.metadata?.deletionTimestamp && (await this.delete(m))) out.deleted.push(full);
    }
    return out;
  }
}
