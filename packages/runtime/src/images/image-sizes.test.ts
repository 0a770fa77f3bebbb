import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blobsOf, reclaimableBytes, type ImageFootprint } from './image-sizes.ts';

const blobSizes: Record<string, number> = { cfgA: 4096, cfgB: 4096, cfgC: 4096, base: 1_000_000, midA: 300_000, topB: 50_000, man: 4096 };
const blobBytes = (d: string) => blobSizes[d];

describe('reclaimableBytes: what removing each image frees', () => {
  const cases: Array<{ name: string; images: ImageFootprint[]; want: Record<string, number> }> = [
    { name: 'no images', images: [], want: {} },
    {
      name: 'one image: rootfs + every blob',
      images: [{ id: 'A', blobs: ['cfgA', 'man', 'base', 'midA'], rootfsBytes: 2_000_000 }],
      want: { A: 2_000_000 + 4096 + 4096 + 1_000_000 + 300_000 },
    },
    {
      name: 'a shared base layer counts for neither image',
      images: [
        { id: 'A', blobs: ['cfgA', 'base', 'midA'], rootfsBytes: 2_000_000 },
        { id: 'B', blobs: ['cfgB', 'base', 'topB'], rootfsBytes: 1_500_000 },
      ],
      want: { A: 2_000_000 + 4096 + 300_000, B: 1_500_000 + 4096 + 50_000 },
    },
    {
      name: 'a blob listed twice by one image is still that image\'s own',
      images: [{ id: 'A', blobs: ['cfgA', 'base', 'base'], rootfsBytes: 10 }],
      want: { A: 10 + 4096 + 1_000_000 },
    },
    {
      name: 'shared by three, then by two: only exclusive blobs count',
      images: [
        { id: 'A', blobs: ['cfgA', 'base', 'midA'], rootfsBytes: 1 },
        { id: 'B', blobs: ['cfgB', 'base', 'midA'], rootfsBytes: 2 },
        { id: 'C', blobs: ['cfgC', 'base'], rootfsBytes: 3 },
      ],
      want: { A: 1 + 4096, B: 2 + 4096, C: 3 + 4096 },
    },
    {
      name: 'a blob missing from the store frees nothing',
      images: [{ id: 'A', blobs: ['cfgA', 'gone'], rootfsBytes: 7 }],
      want: { A: 7 + 4096 },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(Object.fromEntries(reclaimableBytes(c.images, blobBytes)), c.want);
    });
  }
});

describe('blobsOf', () => {
  const cases = [
    { name: 'config and layers', img: { id: 'c', layers: ['l1', 'l2'] }, want: ['c', 'l1', 'l2'] },
    { name: 'with a manifest', img: { id: 'c', manifest: 'm', layers: ['l1'] }, want: ['c', 'm', 'l1'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(blobsOf(c.img), c.want));
});
