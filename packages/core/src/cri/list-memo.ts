/**
 * Decoding a CRI list answer once per change. The kubelet's loops ask ListPodSandbox and ListContainers about 70
 * times a minute (HandlePodCleanups every 2 s, PLEG, the log manager, GC), and while nothing changes the runtime
 * answers the same items every time; decoding 110 items with proto-loader's defaults was ≈ 15 % of the agent's
 * allocation at 110 pods.
 *
 * - Only whole-node lists are kept (no filter but a state): one per RPC and state. A per-pod (label selector) or
 *   per-id list is asked because that pod changed, so its last answer would almost never match; it is decoded
 *   directly and nothing of it is kept.
 * - The same bytes as the last answer to the same request → the last decoded object.
 * - Otherwise the answer is split at its top-level items (each of these responses is one repeated message field,
 *   number 1): items equal to one of the last answer's keep its decoded object, only new ones are decoded. Items are
 *   compared as messages, map entries in any order (list-item.ts): containerd writes them in Go's random map order,
 *   so the same container is other bytes on every call. An answer holding exactly the last answer's items in another
 *   order gives the last object: containerd lists its stores from Go maps too, and CRI gives list order no meaning.
 *
 * Every decoded answer is deep-frozen: callers share it.
 */
import { deepFreeze } from './deep-freeze.ts';
import { distinctKeys, ITEM_SHAPE, itemKey, lastVarint, readVarint, sameItem, wholeNodeRequest, type Shape } from './list-item.ts';

type Decode = (buf: Buffer) => unknown;
/** The key items are looked up by (list-item.ts itemKey); a parameter so tests can force collisions. */
type ItemKey = (buf: Buffer, start: number, end: number) => number;

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
  /** The answer that last matched it: each matches one new item at most, so [a, a] is not [a, b] reordered. */
  matched: number;
}

interface Entry {
  bytes: Buffer;
  value: Record<string, unknown>;
  /** The items by their key (list-item.ts itemKey; keys may collide: the items are compared). */
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

/**
 * Each field-1 item's framing start, body start and end, flat (3 numbers an item); undefined when `buf` holds
 * anything else.
 */
function splitItems(buf: Buffer): number[] | undefined {
  const out: number[] = [];
  for (let at = 0; at < buf.length; ) {
    if (buf[at] !== 0x0a) return undefined; // field 1, wire type 2
    const body = readVarint(buf, at + 1, buf.length);
    if (body < 0) return undefined;
    const end = body + lastVarint();
    if (end > buf.length) return undefined;
    out.push(at, body, end);
    at = end;
  }
  return out;
}

export class ListMemo {
  readonly counts: ListMemoCounts = { hits: 0, reordered: 0, misses: 0, decodedItems: 0, items: 0 };
  /** Least recently used first; one entry per whole-node request (RPC and state filter): a handful. */
  private readonly entries = new Map<string, Entry>();
  private answers = 0;

  constructor(
    private readonly maxEntries = 16,
    private readonly keyOf: ItemKey = itemKey,
  ) {}

  /** Requests kept (tests: a per-pod request keeps nothing). */
  get size(): number {
    return this.entries.size;
  }

  /** The response deserializer for one call of `rpc` whose request serialized to `request`. */
  deserializer(rpc: string, request: Buffer, decode: Decode): Decode {
    const field = MEMO_LIST_FIELD[rpc];
    if (!field || !wholeNodeRequest(request)) return decode;
    const shape = ITEM_SHAPE[rpc]!;
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
      const entry = this.decode(buf, field, shape, last, decode);
      this.entries.set(key, entry);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      return entry.value;
    };
  }

  private decode(buf: Buffer, field: string, shape: Shape, last: Entry | undefined, decode: Decode): Entry {
    const frames = splitItems(buf);
    if (!frames) {
      this.counts.misses++;
      return { bytes: Buffer.from(buf), value: deepFreeze(decode(buf) as Record<string, unknown>), items: new Map(), count: -1 };
    }
    const count = frames.length / 3;
    const answer = ++this.answers;
    const keys = new Array<number>(count);
    const known = new Array<unknown>(count).fill(undefined); // not sparse: map() below skips holes
    let fresh = 0;
    for (let i = 0; i < count; i++) {
      const start = frames[3 * i + 1]!;
      const end = frames[3 * i + 2]!;
      keys[i] = this.keyOf(buf, start, end);
      // a key is only a hint: a false match would hand out another container's status, so the items are compared
      for (const it of (last && last.items.get(keys[i]!)) || []) {
        if (it.matched !== answer && sameItem(buf, start, end, last!.bytes, it.start, it.end, shape)) {
          it.matched = answer;
          known[i] = it.value;
          break;
        }
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
      const start = frames[3 * i + 1]!;
      const end = frames[3 * i + 2]!;
      // not indexed: a map key twice (list-item.ts distinctKeys)
      if (known[i] === undefined && !distinctKeys(buf, start, end, shape, list[i])) continue;
      const it = { start, end, value: list[i], matched: 0 };
      const same = items.get(keys[i]!);
      if (same) same.push(it);
      else items.set(keys[i]!, [it]);
    }
    // a copy: grpc-js may hand out a view of a larger chunk
    return { bytes: Buffer.from(buf), value: deepFreeze(value), items, count };
  }
}
