/**
 * The body of GET /pods, byte for byte `JSON.stringify(podList(items))`, without serialising every pod on every
 * request: a pod's JSON is kept while the pod is unchanged, and the whole body (and its length) while no pod is.
 *
 * The kubelet hands out a fresh `{ ...pod, status }` per pod on each call, so "unchanged" is judged from what
 * that object is made of: the same own keys, in the same order, holding the very same values (`===`). The pod
 * manager replaces a pod object when the pod changes and the status manager stores a new status object for each
 * new status version (it never changes a recorded one), so a change in either shows as a new top-level value.
 * Entries are held in a WeakMap keyed by the pod's metadata object: a pod gone from the pod manager takes its
 * entry with it.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { sameItems } from '@nodelet/core/util';

interface PodEntry {
  keys: string[];
  values: unknown[];
  json: string;
}

const HEAD = '{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[';
const TAIL = ']}';

export class PodListBody {
  private readonly pods = new WeakMap<object, PodEntry>();
  private last: { parts: string[]; body: Buffer } | undefined;

  /** The serialised PodList of `items`, as a Buffer ready to send (its byteLength is the Content-Length). */
  body(items: readonly V1Pod[]): Buffer {
    const parts = items.map((p) => this.podJson(p));
    const last = this.last;
    if (last && sameItems(last.parts, parts)) return last.body;
    const body = Buffer.from(`${HEAD}${parts.join(',')}${TAIL}`);
    this.last = { parts, body };
    return body;
  }

  private podJson(pod: V1Pod): string {
    const key = pod.metadata;
    if (typeof key !== 'object' || key === null) return JSON.stringify(pod);
    const keys = Object.keys(pod);
    const values = keys.map((k) => (pod as Record<string, unknown>)[k]);
    const hit = this.pods.get(key);
    if (hit && sameItems(hit.keys, keys) && sameItems(hit.values, values)) return hit.json;
    const json = JSON.stringify(pod);
    this.pods.set(key, { keys, values, json });
    return json;
  }
}
