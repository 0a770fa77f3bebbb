/**
 * Decoding a CRI list answer once per change. The kubelet's loops ask ListPodSandbox and ListContainers about 70
 * times a minute (HandlePodCleanups every 2 s, PLEG, the log manager, GC), and while nothing changes the runtime
 * answers the same items every time; decoding 110 items with proto-loader's defaults was ≈ 15 % of the agent's
 * allocation at 110 pods. Comparing bytes costs a memcmp.
 *
 * - The same bytes as the last answer to the same request → the last decoded object.
 * - Otherwise the answer is split at its top-level items (each of these responses is one repeated message field,
 *   number 1): items whose bytes were in the last answer keep their decoded object, only new ones are decoded. An
 *   answer holding exactly the last answer's items in another order gives the last object: containerd lists its
 *   stores from Go maps, so its order changes between calls, and CRI gives list order no meaning.
 *
 * Every decoded answer is deep-frozen: callers share it.
 */
import { deepFreeze } from './deep-freeze.ts';

type Decode = (buf: Buffer) => unknown;

/**
 * The memoized RPCs and the name of their one repeated field (number 1). Not the stats lists nor ImageFsInfo: their
 * answers carry timestamps and counters, new on every call.
 */
export const MEMO_LIST_FIELD: Readonly<Record<string, string>> = {
  ListPodSandbox: 'items',
  ListContainers: 'containers',
  ListImages: 'images',
};

/** An item of an answer: its body's range in the entry's bytes and its decoded, frozen object. */
interface Item {
  start: number;
  end: number;
  value: unknown;
}

interface Entry {
  bytes: Buffer;
  value: Record<string, unknown>;
  /** The items by a hash of their bytes (hashes may collide: the bytes are compared). */
  items: Map<number, Item[]>;
  count: number;
}

export interface ListMemoCounts {
  /** Same bytes as the last answer. */
  hits: number;
  /** Same items in another order. */
  reordered: number;
  /** Something changed: `decodedItems` items decoded of `items` seen in those answers. */
  misses: number;
  decodedItems: number;
  items: number;
}

/** Reads a varint at `at`; [value, next offset], or undefined past the end or beyond 2^31. */
function varint(buf: Buffer, at: number): [number, number] | undefined {
  let v = 0;
  for (let shift = 0; shift < 32 && at < buf.length; shift += 7) {
    const b = buf[at++]!;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) return v >= 0 ? [v, at] : undefined;
  }
  return undefined;
}

/**
 * Each field-1 item's framing start, body start and end, flat (3 numbers an item); undefined when `buf` holds
 * anything else.
 */
function splitItems(buf: Buffer): number[] | undefined {
  const out: number[] = [];
  for (let at = 0; at < buf.length; ) {
    if (buf[at] !== 0x0a) return undefined; // field 1, wire type 2
    const len = varint(buf, at + 1);
    if (!len || len[1] + len[0] > buf.length) return undefined;
    out.push(at, len[1], len[1] + len[0]);
    at = len[1] + len[0];
  }
  return out;
}

/** FNV-1a of buf[start, end): finds an item among the last answer's without copying its bytes into a key. */
function hash(buf: Buffer, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return h >>> 0;
}

export class ListMemo {
  readonly counts: ListMemoCounts = { hits: 0, reordered: 0, misses: 0, decodedItems: 0, items: 0 };
  /** Least recently used first; one entry per distinct request (per-pod label selectors make ≈ 2 per pod). */
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 1024) {}

  /** The response deserializer for one call of `rpc` whose request serialized to `request`. */
  deserializer(rpc: string, request: Buffer, decode: Decode): Decode {
    const field = MEMO_LIST_FIELD[rpc];
    if (!field) return decode;
    const key = `${rpc}\0${request.toString('latin1')}`;
    return (buf) => {
      const last = this.entries.get(key);
      if (last) {
        this.entries.delete(key);
        this.entries.set(key, last);
        if (buf.equals(last.bytes)) {
          this.counts.hits++;
          return last.value;
        }
      }
      const entry = this.decode(buf, field, last, decode);
      this.entries.set(key, entry);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      return entry.value;
    };
  }

  private decode(buf: Buffer, field: string, last: Entry | undefined, decode: Decode): Entry {
    const frames = splitItems(buf);
    if (!frames) {
      this.counts.misses++;
      return { bytes: Buffer.from(buf), value: deepFreeze(decode(buf) as Record<string, unknown>), items: new Map(), count: -1 };
    }
    const count = frames.length / 3;
    const hashes = new Array<number>(count);
    const known = new Array<unknown>(count).fill(undefined); // not sparse: map() below skips holes
    let fresh = 0;
    for (let i = 0; i < count; i++) {
      const start = frames[3 * i + 1]!;
      const end = frames[3 * i + 2]!;
      hashes[i] = hash(buf, start, end);
      for (const it of (last && last.items.get(hashes[i]!)) ?? []) {
        if (buf.compare(last!.bytes, it.start, it.end, start, end) === 0) known[i] = it.value;
      }
      if (known[i] === undefined) fresh++;
    }
    // The same items in another order: the last answer stands (its bytes too; the next reordering is found the same way).
    if (last && fresh === 0 && count === last.count) {
      this.counts.reordered++;
      return last;
    }
    this.counts.misses++;
    this.counts.items += count;
    this.counts.decodedItems += fresh;
    // New items are decoded as a response of only them: proto-loader fills the same defaults as for the whole answer.
    const parts: Buffer[] = [];
    for (let i = 0; i < count; i++) if (known[i] === undefined) parts.push(buf.subarray(frames[3 * i]!, frames[3 * i + 2]!));
    const value = decode(Buffer.concat(parts)) as Record<string, unknown>;
    const decoded = (value[field] ?? []) as unknown[];
    let next = 0;
    const list = known.map((k) => k ?? deepFreeze(decoded[next++]));
    value[field] = list;
    const items = new Map<number, Item[]>();
    for (let i = 0; i < count; i++) {
      const it = { start: frames[3 * i + 1]!, end: frames[3 * i + 2]!, value: list[i] };
      const same = items.get(hashes[i]!);
      if (same) same.push(it);
      else items.set(hashes[i]!, [it]);
    }
    // a copy: grpc-js may hand out a view of a larger chunk
    return { bytes: Buffer.from(buf), value: deepFreeze(value), items, count };
  }
}
