import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { podItem } from './pod-item.mjs';

const list = (items: unknown[]) => Buffer.from(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items }));

test('podItem: the pod named, parsed, past braces, brackets, quotes and escapes inside other pods\' strings', () => {
  const tricky = { metadata: { name: 'a', annotations: { x: '{"name":"b"} ] [ \\" }' } }, spec: { containers: [{ name: 'b' }] } };
  const b = { metadata: { name: 'b', labels: { 'ünï': 'cödé' } }, status: { containerStatuses: [{ containerID: 'containerd://1', state: { terminated: { exitCode: 137 } } }] } };
  const body = list([tricky, b, { metadata: { name: 'c' } }]);
  assert.deepEqual(podItem(body, 'b'), b);
  assert.deepEqual(podItem(body, 'a'), tricky);
  assert.equal(podItem(body, 'd'), undefined);
  assert.equal(podItem(list([]), 'b'), undefined);
});

test('podItem agrees with JSON.parse on any PodList (fast-check)', () => {
  const pod = fc.record({ metadata: fc.record({ name: fc.string({ minLength: 1, maxLength: 8 }), annotations: fc.dictionary(fc.string(), fc.string()) }), spec: fc.jsonValue() });
  fc.assert(
    fc.property(fc.array(pod, { maxLength: 6 }), fc.string({ minLength: 1, maxLength: 8 }), (pods, probe) => {
      const body = list(pods);
      for (const name of [...pods.map((p) => p.metadata.name), probe]) {
        const want = (JSON.parse(body.toString()) as { items: Array<{ metadata: { name: string } }> }).items.find((p) => p.metadata.name === name);
        assert.deepEqual(podItem(body, name), want);
      }
    }),
    { numRuns: 300 },
  );
});
