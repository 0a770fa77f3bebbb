// Items compared as messages (list-item.ts): protobufjs writes a map's entries in the object's key order, so an
// object with the same keys inserted in another order gives the bytes containerd gives on its next call (Go's
// random map order).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadCriPackage } from '../../../../proto/load.ts';
import { ListMemo } from './list-memo.ts';
import { ITEM_SHAPE, itemKey, sameItem } from './list-item.ts';
import type { Container } from './proto-types.ts';

const cri = loadCriPackage().runtime.v1;
const lc = cri.RuntimeService.service.ListContainers;
const li = cri.ImageService.service.ListImages;
type Out = { containers: Array<Record<string, unknown>> };
const decode = lc.responseDeserialize as unknown as (b: Buffer) => Out;
const encode = (containers: Container[]) => lc.responseSerialize({ containers });
const req = lc.requestSerialize({});

const reversed = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).reverse());
const labels = (id: string) => ({ 'io.kubernetes.pod.name': `p-${id}`, 'io.kubernetes.pod.namespace': 'default', 'io.kubernetes.pod.uid': `uid-${id}`, 'io.kubernetes.container.name': 'app' });
const annotations = { 'io.kubernetes.container.hash': '3b4e5f61', 'io.kubernetes.container.restartCount': '0', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' };
const container = (id: string, flip = false, extra: Partial<Container> = {}): Container => ({
  id,
  podSandboxId: `sb-${id}`,
  metadata: { name: 'app', attempt: 0 },
  image: { image: 'busybox', annotations: flip ? { b: '2', a: '1' } : { a: '1', b: '2' } },
  imageRef: 'sha256:1',
  state: 'CONTAINER_RUNNING',
  createdAt: 1_763_776_874_170_040_000,
  labels: flip ? reversed(labels(id)) : labels(id),
  annotations: flip ? reversed(annotations) : annotations,
  ...extra,
});
const list = (memo: ListMemo, bytes: Buffer) => memo.deserializer('ListContainers', req, decode)(bytes) as Out;

/** One item's body: the response's single field-1 frame without its tag and (one- or two-byte) length. */
const body = (c: Container) => {
  const b = encode([c]);
  const at = b[1]! < 0x80 ? 2 : 3;
  assert.ok(b[0] === 0x0a && b.length === (b[1]! & 0x7f) + (at === 3 ? b[2]! << 7 : 0) + at);
  return b.subarray(at);
};
const frameItem = (b: Buffer) => Buffer.concat([Buffer.from([0x0a, (b.length & 0x7f) | 0x80, b.length >> 7]), b]);

describe('ListMemo: items compared as messages', () => {
  it('gives the same object for the same items with their map entries in another order', () => {
    const memo = new ListMemo();
    const first = list(memo, encode([container('a'), container('b')]));
    const flipped = encode([container('b', true), container('a', true)]);
    assert.notDeepEqual(flipped, encode([container('b'), container('a')])); // other bytes, item by item
    assert.equal(list(memo, flipped), first);
    assert.equal(list(memo, encode([container('a', true), container('b')])), first);
    assert.deepEqual(memo.counts, { hits: 0, reordered: 2, misses: 1, decodedItems: 2, items: 2 });
    // one item changed: the other keeps its object, in any map order
    const third = list(memo, encode([container('a', true), container('c', true)]));
    assert.equal(third.containers[0], first.containers[0]);
    assert.deepEqual(third, decode(encode([container('a'), container('c')])));
  });

  it('gives a new object for a changed label value, annotation, nested annotation or field', () => {
    for (const changed of [
      container('a', true, { labels: { ...labels('a'), 'io.kubernetes.pod.name': 'p-x' } }),
      container('a', true, { annotations: { ...annotations, 'io.kubernetes.container.restartCount': '1' } }),
      container('a', false, { annotations: { ...annotations, 'io.kubernetes.container.restartCount': '' } }),
      container('a', true, { image: { image: 'busybox', annotations: { a: '1', b: '3' } } }),
      container('a', true, { image: { image: 'busybox', annotations: { a: '1' } } }),
      container('a', true, { state: 'CONTAINER_EXITED' }),
      // an entry moved from labels to annotations: both are maps, but not the same one
      container('a', false, { labels: { ...labels('a'), 'io.kubernetes.container.hash': '3b4e5f61' }, annotations: {} }),
    ]) {
      const memo = new ListMemo();
      const first = list(memo, encode([container('a')]));
      const second = list(memo, encode([changed]));
      assert.notEqual(second.containers[0], first.containers[0]);
      assert.deepEqual(second, decode(encode([changed])));
    }
  });

  it('keeps the order of a repeated non-map field (Image.repo_tags): the same tags in another order are another image', () => {
    const memo = new ListMemo();
    const d = li.responseDeserialize as unknown as (b: Buffer) => { images: Array<{ repoTags: string[] }> };
    const image = (tags: string[], annotations: Record<string, string>) => ({ id: 'sha256:1', repoTags: tags, repoDigests: [], size: 5, spec: { image: 'x', annotations } });
    const ask = (bytes: Buffer) => memo.deserializer('ListImages', li.requestSerialize({}), d)(bytes) as ReturnType<typeof d>;
    const first = ask(li.responseSerialize({ images: [image(['a:1', 'b:1'], { x: '1', y: '2' })] }));
    // Image.spec.annotations is a map: its order does not matter
    assert.equal(ask(li.responseSerialize({ images: [image(['a:1', 'b:1'], { y: '2', x: '1' })] })), first);
    const swapped = ask(li.responseSerialize({ images: [image(['b:1', 'a:1'], { x: '1', y: '2' })] }));
    assert.notEqual(swapped.images[0], first.images[0]);
    assert.deepEqual(swapped.images[0]!.repoTags, ['b:1', 'a:1']);
  });

  it('compares the items when their hashes are equal: a collision decodes the other item', () => {
    let calls = 0;
    const memo = new ListMemo(16, () => (calls++, 7)); // every item hashes the same
    const first = list(memo, encode([container('a'), container('b')]));
    const second = list(memo, encode([container('b', true), container('c', true), container('a', true)]));
    assert.equal(second.containers[0], first.containers[1]);
    assert.equal(second.containers[2], first.containers[0]);
    assert.deepEqual(second.containers[1], decode(encode([container('c')])).containers[0]);
    assert.deepEqual(memo.counts, { hits: 0, reordered: 0, misses: 2, decodedItems: 3, items: 5 });
    assert.equal(calls, 5);
  });

  it('finds an item by its id and compares it as a message', () => {
    const a = body(container('a'));
    const b = body(container('a', true));
    const shape = ITEM_SHAPE.ListContainers!;
    assert.notDeepEqual(a, b);
    assert.equal(itemKey(a, 0, a.length), itemKey(b, 0, b.length));
    assert.ok(sameItem(a, 0, a.length, b, 0, b.length, shape) && sameItem(b, 0, b.length, a, 0, a.length, shape));
    const c = body(container('b'));
    assert.notEqual(itemKey(a, 0, a.length), itemKey(c, 0, c.length));
    // a map entry more or less, or one map's entries under the other map's field number
    const more = body(container('a', true, { labels: { ...labels('a'), x: 'y' } }));
    assert.ok(!sameItem(a, 0, a.length, more, 0, more.length, shape) && !sameItem(more, 0, more.length, a, 0, a.length, shape));
    assert.ok(!sameItem(a, 0, a.length, b, 0, b.length - 1, shape) && !sameItem(a, 0, a.length - 1, b, 0, b.length, shape));
    const swapped = body(container('a', false, { labels: annotations, annotations: labels('a') }));
    assert.ok(!sameItem(a, 0, a.length, swapped, 0, swapped.length, shape));
  });

  it('never matches an item whose map holds a key twice (it decodes to the last value)', () => {
    // a message's bytes concatenated with more fields merge: here labels gets k twice
    const one = (v: string) => body({ labels: { k: v } } as Container);
    const base = body(container('a'));
    const kv12 = frameItem(Buffer.concat([base, one('1'), one('2')]));
    const kv21 = frameItem(Buffer.concat([base, one('2'), one('1')]));
    const memo = new ListMemo();
    const first = list(memo, kv12);
    assert.equal((first.containers[0]!.labels as Record<string, string>).k, '2');
    const second = list(memo, kv21);
    assert.notEqual(second, first);
    assert.equal((second.containers[0]!.labels as Record<string, string>).k, '1');
  });
});
