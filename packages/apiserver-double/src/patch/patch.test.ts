import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyJsonPatch } from './json-patch.ts';
import { mergePatch } from './merge-patch.ts';
import { strategicMerge } from './strategic-merge.ts';

const cond = (type: string, status: string) => ({ type, status });

test('strategic merge patch follows the k8s.io/api patch tags', () => {
  const pod = {
    metadata: { name: 'p', labels: { a: '1' }, finalizers: ['x'] },
    spec: { containers: [{ name: 'a', image: 'i1', env: [{ name: 'E', value: '1' }] }, { name: 'b', image: 'i2' }] },
    status: {
      phase: 'Pending',
      conditions: [cond('PodScheduled', 'True'), cond('Ready', 'False')],
      containerStatuses: [{ name: 'a', ready: false }, { name: 'b', ready: false }],
    },
  };
  const cases: { name: string; patch: unknown; check: (out: any) => void }[] = [
    {
      name: 'conditions merge by type, others kept',
      patch: { status: { conditions: [cond('Ready', 'True'), cond('Initialized', 'True')] } },
      check: (o) => assert.deepEqual(o.status.conditions, [cond('PodScheduled', 'True'), cond('Ready', 'True'), cond('Initialized', 'True')]),
    },
    {
      name: '$setElementOrder reorders the merged list',
      patch: {
        status: {
          '$setElementOrder/conditions': [{ type: 'Initialized' }, { type: 'Ready' }, { type: 'PodScheduled' }],
          conditions: [cond('Initialized', 'True')],
        },
      },
      check: (o) => assert.deepEqual(o.status.conditions.map((c: any) => c.type), ['Initialized', 'Ready', 'PodScheduled']),
    },
    {
      name: 'containerStatuses are atomic (listType=atomic): replaced whole',
      patch: { status: { containerStatuses: [{ name: 'b', ready: true }] } },
      check: (o) => assert.deepEqual(o.status.containerStatuses, [{ name: 'b', ready: true }]),
    },
    {
      name: '$patch: delete removes a keyed list element',
      patch: { status: { conditions: [{ type: 'Ready', $patch: 'delete' }] } },
      check: (o) => assert.deepEqual(o.status.conditions, [cond('PodScheduled', 'True')]),
    },
    {
      name: 'containers merge by name, nested env by name',
      patch: { spec: { containers: [{ name: 'a', image: 'i9', env: [{ name: 'F', value: '2' }] }] } },
      check: (o) => {
        assert.equal(o.spec.containers[0].image, 'i9');
        assert.deepEqual(o.spec.containers[0].env.map((e: any) => e.name), ['E', 'F']);
        assert.equal(o.spec.containers.length, 2);
      },
    },
    {
      name: 'finalizers union; $deleteFromPrimitiveList removes; null deletes a map key',
      patch: { metadata: { finalizers: ['y'], '$deleteFromPrimitiveList/finalizers': ['x'], labels: { a: null, b: '2' } } },
      check: (o) => {
        assert.deepEqual(o.metadata.finalizers, ['y']);
        assert.deepEqual(o.metadata.labels, { b: '2' });
      },
    },
    {
      name: '$patch: replace on a map replaces it',
      patch: { metadata: { labels: { $patch: 'replace', c: '3' } } },
      check: (o) => assert.deepEqual(o.metadata.labels, { c: '3' }),
    },
  ];
  for (const c of cases) {
    const out = strategicMerge(pod, c.patch);
    assert.doesNotThrow(() => c.check(out), c.name);
  }
  assert.equal(pod.status.conditions.length, 2, 'input not mutated');
});

test('JSON merge patch replaces lists and deletes on null', () => {
  const out = mergePatch({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, d: null }) as any;
  assert.deepEqual(out, { a: { b: 1, c: [3] } });
});

test('JSON patch operations and failures', () => {
  const doc = { metadata: { labels: { a: '1' } }, list: [1, 2] };
  const cases: { ops: unknown; want: unknown }[] = [
    { ops: [{ op: 'add', path: '/metadata/labels/b', value: '2' }], want: { metadata: { labels: { a: '1', b: '2' } }, list: [1, 2] } },
    { ops: [{ op: 'remove', path: '/list/0' }], want: { metadata: { labels: { a: '1' } }, list: [2] } },
    { ops: [{ op: 'replace', path: '/list/1', value: 9 }], want: { metadata: { labels: { a: '1' } }, list: [1, 9] } },
    { ops: [{ op: 'add', path: '/list/-', value: 3 }], want: { metadata: { labels: { a: '1' } }, list: [1, 2, 3] } },
    { ops: [{ op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/z' }], want: { metadata: { labels: { z: '1' } }, list: [1, 2] } },
    { ops: [{ op: 'test', path: '/list/0', value: 5 }], want: 'fail' },
    { ops: [{ op: 'remove', path: '/nope' }], want: 'fail' },
  ];
  for (const c of cases) {
    const r = applyJsonPatch(doc, c.ops);
    if (c.want === 'fail') assert.equal(r.ok, false, JSON.stringify(c.ops));
    else assert.deepEqual(r.ok && r.value, c.want, JSON.stringify(c.ops));
  }
});
