import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImageInventoryItem } from '../../lib/api-types.ts';
import { imageName, reclaimable, sortImages } from './images-model.ts';

const item = (o: Partial<ImageInventoryItem>): ImageInventoryItem => ({
  id: 'sha256:0123456789abcdef0123', tags: [], digests: [], sizeBytes: 0, pinned: false, inUse: false, pods: [],
  firstDetected: '2026-11-26T05:00:00.000Z', lastUsed: '2026-11-26T05:00:00.000Z',
  nextGc: { remove: false, why: 'kept' }, manualGc: { remove: false, why: 'kept' }, ...o,
});

test('imageName: first tag, else digest, else the short id', () => {
  assert.equal(imageName(item({ tags: ['busybox:1.36', 'busybox:latest'] })), 'busybox:1.36');
  assert.equal(imageName(item({ digests: ['busybox@sha256:aa'] })), 'busybox@sha256:aa');
  assert.equal(imageName(item({})), '0123456789ab');
});

test('sortImages by size / last used / pods, ties by name', () => {
  const a = item({ tags: ['a:1'], sizeBytes: 10, lastUsed: '2026-11-26T05:10:00.000Z', pods: ['d/x', 'd/y'] });
  const b = item({ tags: ['b:1'], sizeBytes: 30, lastUsed: '2026-11-26T05:05:00.000Z', pods: [] });
  const c = item({ tags: ['c:1'], sizeBytes: 10, lastUsed: '2026-11-26T05:20:00.000Z', pods: ['d/z'] });
  const names = (l: ImageInventoryItem[]) => l.map(imageName);
  assert.deepEqual(names(sortImages([c, b, a], 'size', true)), ['b:1', 'a:1', 'c:1']);
  assert.deepEqual(names(sortImages([c, b, a], 'lastUsed', false)), ['b:1', 'a:1', 'c:1']);
  assert.deepEqual(names(sortImages([c, b, a], 'pods', true)), ['a:1', 'c:1', 'b:1']);
  assert.deepEqual(names(sortImages([c, b, a], 'name', false)), ['a:1', 'b:1', 'c:1']);
});

test('reclaimable sums what the next or a manual GC removes', () => {
  const items = [
    item({ sizeBytes: 5, nextGc: { remove: true, reason: 'space', why: '' }, manualGc: { remove: true, why: '' } }),
    item({ sizeBytes: 7, manualGc: { remove: true, why: '' } }),
    item({ sizeBytes: 100 }),
  ];
  assert.deepEqual(reclaimable(items, 'nextGc'), { count: 1, bytes: 5 });
  assert.deepEqual(reclaimable(items, 'manualGc'), { count: 2, bytes: 12 });
});
