/** Pure model of the images page: rows from the agent's image inventory, sorting, and what a GC would free. */
import type { ImageInventoryItem } from '../../lib/api-types.ts';

export type ImageSortKey = 'name' | 'size' | 'lastUsed' | 'pods';

/** The name shown for an image: its first tag, else its first digest, else the short id. */
export function imageName(i: Pick<ImageInventoryItem, 'tags' | 'digests' | 'id'>): string {
  return i.tags[0] ?? i.digests[0] ?? i.id.replace(/^sha256:/, '').slice(0, 12);
}

export function sortImages(items: readonly ImageInventoryItem[], key: ImageSortKey, desc: boolean): ImageInventoryItem[] {
  const get: Record<ImageSortKey, (i: ImageInventoryItem) => number | string> = {
    name: imageName,
    size: (i) => i.sizeBytes,
    lastUsed: (i) => Date.parse(i.lastUsed) || 0,
    pods: (i) => i.pods.length,
  };
  const dir = desc ? -1 : 1;
  return [...items].sort((a, b) => {
    const va = get[key](a);
    const vb = get[key](b);
    const c = typeof va === 'string' || typeof vb === 'string' ? String(va).localeCompare(String(vb)) : va - vb;
    return c * dir || imageName(a).localeCompare(imageName(b));
  });
}

/** Count and bytes of the images a GC would remove (next periodic or manual). */
export function reclaimable(items: readonly ImageInventoryItem[], which: 'nextGc' | 'manualGc'): { count: number; bytes: number } {
  const chosen = items.filter((i) => i[which].remove);
  return { count: chosen.length, bytes: chosen.reduce((n, i) => n + i.sizeBytes, 0) };
}
