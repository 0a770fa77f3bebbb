/**
 * The validation table's runner: each row is a whole manifest (the base pod with the row's changes) given to
 * the file source's decoder as its JSON text, and the API server's verdict for it: [] (accepted) or its field
 * errors in order. A refused manifest must give exactly `invalid pod: [<errors>]`; an accepted one a pod.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Container, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { decodeSinglePod } from '../decode.ts';

export type Row = [name: string, change: (pod: V1Pod) => void, verdict: string[]];

const SRC = { kind: 'file' as const, id: '/etc/kubernetes/manifests/web.yaml', nodeName: 'node1' };

export const basePod = (): V1Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web' },
  spec: { containers: [{ name: 'app', image: 'busybox' }] },
});

export const spec = (p: V1Pod): V1PodSpec => p.spec!;
export const c0 = (p: V1Pod): V1Container => p.spec!.containers[0]!;
/** Sets fields of the first container. */
export const onC0 = (fields: Partial<V1Container>) => (p: V1Pod) => void Object.assign(c0(p), fields);
/** Sets fields of the spec. */
export const onSpec = (fields: Partial<V1PodSpec>) => (p: V1Pod) => void Object.assign(spec(p), fields);

export function runTable(title: string, rows: Row[]): void {
  for (const [name, change, verdict] of rows) {
    test(`${title}: ${verdict.length ? 'refused' : 'accepted'}: ${name}`, () => {
      const pod = basePod();
      change(pod);
      const r = decodeSinglePod(JSON.stringify(pod), SRC);
      if (verdict.length === 0) assert.ok(r.ok, r.ok ? '' : r.message);
      else assert.deepEqual(r, { ok: false, message: `invalid pod: [${verdict.join(', ')}]` });
    });
  }
}
