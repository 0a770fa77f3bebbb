/**
 * A CRI list item's identity as a protobuf message, not as bytes: containerd (Go, gogo protobuf) writes a map
 * field's entries in Go's random map order, so the same container comes as other bytes on every call. Two items are
 * the same when their frames (top-level fields) are equal in order, except the map fields' entry frames, which are
 * equal as a multiset (sameItem). A nested message that holds a map (ImageSpec.annotations, in Container.image and Image.spec)
 * is compared the same way, one level down; any other nested message (metadata) is compared by its bytes, which a
 * Go runtime writes the same every time. Repeated non-map fields (Image.repo_tags, repo_digests) keep their order:
 * it is part of the value.
 *
 * Nothing here copies bytes: frames are walked in place and sub-ranges compared (Buffer.compare, or a loop when short);
 * the per-call scratch is module state (an array of offsets), so a comparison allocates nothing.
 */

/** A message's map fields and its nested messages that hold maps, by field number. */
export interface Shape {
  /** Map field number → its name in the decoded object. */
  maps: Readonly<Record<number, string>>;
  /** Nested message field number → its name in the decoded object and its shape. */
  nested: Readonly<Record<number, readonly [string, Shape]>>;
}

const IMAGE_SPEC: Shape = { maps: { 2: 'annotations' }, nested: {} };

/** The item message of each memoized list (proto/runtime/v1/api.proto). */
export const ITEM_SHAPE: Readonly<Record<string, Shape>> = {
  ListPodSandbox: { maps: { 5: 'labels', 6: 'annotations' }, nested: {} }, // PodSandbox
  ListContainers: { maps: { 8: 'labels', 9: 'annotations' }, nested: { 4: ['image', IMAGE_SPEC] } }, // Container
  ListImages: { maps: {}, nested: { 7: ['spec', IMAGE_SPEC] } }, // Image
};

/** The frame being walked (module scratch: one walk at a time, no allocation per frame). */
let fieldNo = 0;
let wire = 0;
let bodyStart = 0;

/** Reads a varint at `at` into `varValue` (see lastVarint); the next offset, or -1 past `end` or beyond 2^31. */
let varValue = 0;
export const lastVarint = (): number => varValue;
export function readVarint(buf: Buffer, at: number, end: number): number {
  let v = 0;
  for (let shift = 0; shift < 32 && at < end; shift += 7) {
    const b = buf[at++]!;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) {
      varValue = v;
      return v >= 0 ? at : -1;
    }
  }
  return -1;
}

/** Steps over the frame at `at` (setting fieldNo, wire, bodyStart); its end, or -1 when malformed. */
function frame(buf: Buffer, at: number, end: number): number {
  const b = readVarint(buf, at, end);
  if (b < 0) return -1;
  fieldNo = varValue >>> 3;
  wire = varValue & 7;
  bodyStart = b;
  let e: number;
  if (wire === 0) {
    e = b;
    while (e < end && buf[e]! >= 0x80) e++;
    e++;
  } else if (wire === 1) e = b + 8;
  else if (wire === 5) e = b + 4;
  else if (wire === 2) {
    const s = readVarint(buf, b, end);
    if (s < 0) return -1;
    bodyStart = s;
    e = s + varValue;
  } else return -1; // groups: not in these messages
  return e > end ? -1 : e;
}

function fnv(h: number, buf: Buffer, start: number, end: number): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return h;
}

/**
 * The key an item is looked up by among the last answer's: FNV-1a of its first frame when that is field 1, the id
 * (unique in a list: PodSandbox, Container, Image), else 0. Equal items have equal keys (sameItem compares the first
 * frame by bytes); hashing the whole item would read every byte once more, and the comparison reads them anyway.
 */
export function itemKey(buf: Buffer, start: number, end: number): number {
  const e = start < end ? frame(buf, start, end) : -1;
  return e < 0 || fieldNo !== 1 ? 0 : fnv(0x811c9dc5, buf, start, e) >>> 0;
}

/**
 * Whether a[aStart, aEnd) and b[bStart, bEnd) hold the same bytes. A loop for short ranges (a map entry, a string):
 * Buffer.compare's argument checks and native call cost more than comparing 40 bytes. From the end: a map's
 * entries start alike (tag, lengths, "io.kubernetes.") and end in their values.
 */
function sameBytes(a: Buffer, aStart: number, aEnd: number, b: Buffer, bStart: number, bEnd: number): boolean {
  const n = aEnd - aStart;
  if (n !== bEnd - bStart) return false;
  if (n > 16) return a.compare(b, bStart, bEnd, aStart, aEnd) === 0;
  for (let k = n - 1; k >= 0; k--) if (a[aStart + k] !== b[bStart + k]) return false;
  return true;
}

/** One side's map-entry frames, (start, end, entryKey) triples; a matched one's start is set to -1. */
const scratch: number[] = [];

/**
 * Whether a[aStart, aEnd) and b[bStart, bEnd) are the same message of this shape: the same runs of frames in the
 * same order, where a run of other fields is compared by its bytes (a nested shape by this rule) and a run of one
 * map's entries as a multiset. Stricter than protobuf equality in one way: a map's entries must come together and
 * at the same place among the other fields, as Go (gogo protobuf) writes them, in field order; another layout is
 * only a miss (the item is decoded), never a false match.
 */
export function sameItem(a: Buffer, aStart: number, aEnd: number, b: Buffer, bStart: number, bEnd: number, shape: Shape): boolean {
  let i = aStart;
  let j = bStart;
  while (i < aEnd) {
    let ie = frame(a, i, aEnd);
    if (ie < 0) return false;
    const field = fieldNo;
    const isMap = wire === 2 && shape.maps[field] !== undefined;
    const inner = wire === 2 && !isMap ? shape.nested[field] : undefined;
    if (inner) {
      const aBody = bodyStart;
      const wireA = wire;
      const je = j < bEnd ? frame(b, j, bEnd) : -1;
      if (je < 0 || fieldNo !== field || wire !== wireA || !sameItem(a, aBody, ie, b, bodyStart, je, inner[1])) return false;
      i = ie;
      j = je;
      continue;
    }
    // the run: this map's entries, or plain fields up to the next map or nested shape
    let count = 1;
    for (let next = ie; next < aEnd; count++) {
      const e = frame(a, next, aEnd);
      if (e < 0) return false;
      if (isMap ? !(wire === 2 && fieldNo === field) : wire === 2 && (shape.maps[fieldNo] !== undefined || shape.nested[fieldNo] !== undefined)) break;
      ie = next = e;
    }
    if (!isMap) {
      // equal bytes are equal frames: B's run ends at a frame boundary and holds no map
      if (j + (ie - i) > bEnd || !sameBytes(a, i, ie, b, j, j + (ie - i))) return false;
      j += ie - i;
    } else {
      let je = j;
      for (let k = 0; k < count; k++) {
        const e = je < bEnd ? frame(b, je, bEnd) : -1;
        if (e < 0 || wire !== 2 || fieldNo !== field) return false;
        je = e;
      }
      // (one more B entry of this map would not match what A has next: B's frames run out or differ)
      if (!sameEntries(a, i, ie, b, j, je)) return false;
      j = je;
    }
    i = ie;
  }
  return j === bEnd;
}

/**
 * A few bytes of a map-entry frame (≥ 2 bytes: tag and length) packed in an int: the length, two of the last bytes
 * (where the value ends) and a middle one. Only a filter before sameBytes, so entries that share it cost a compare.
 */
const entryKey = (buf: Buffer, s: number, e: number) => ((e - s) & 0xff) | (buf[e - 1]! << 8) | (buf[e - 2]! << 16) | (buf[(s + e) >> 1]! << 24);

/**
 * Whether the map-entry frames of a[aStart, aEnd) and b[bStart, bEnd) are the same multiset (their count is known
 * equal): B's entries are listed in `scratch` as (start, end, key), each A entry takes an unmatched equal one.
 */
function sameEntries(a: Buffer, aStart: number, aEnd: number, b: Buffer, bStart: number, bEnd: number): boolean {
  let n = 0;
  for (let at = bStart; at < bEnd; ) {
    const e = frame(b, at, bEnd);
    (scratch[n++] = at), (scratch[n++] = e), (scratch[n++] = entryKey(b, at, e));
    at = e;
  }
  // each A entry looks first where it is in A (the same order matches at once), then at the others
  for (let at = aStart, p = 0; at < aEnd; ) {
    const e = frame(a, at, aEnd);
    const key = entryKey(a, at, e);
    let m = 0;
    let k = p;
    for (; m < n; m += 3, k = k + 3 < n ? k + 3 : 0) {
      if (scratch[k + 2] === key && scratch[k]! >= 0 && sameBytes(a, at, e, b, scratch[k]!, scratch[k + 1]!)) break;
    }
    if (m >= n) return false;
    scratch[k] = -1;
    p += 3;
    at = e;
  }
  return true;
}

/**
 * Whether each map of the decoded item has as many keys as the bytes have entries. A map with a key twice decodes
 * to its last value, so two items equal as multisets of entries could decode differently: such an item is never
 * matched by identity (a Go map cannot produce one).
 */
export function distinctKeys(buf: Buffer, start: number, end: number, shape: Shape, value: unknown): boolean {
  const obj = (value ?? {}) as Record<string, unknown>;
  const counts: Record<string, number> = {};
  for (let at = start; at < end; ) {
    const e = frame(buf, at, end);
    if (e < 0) return false;
    const name = wire === 2 ? shape.maps[fieldNo] : undefined;
    const inner = wire === 2 ? shape.nested[fieldNo] : undefined;
    if (name !== undefined) counts[name] = (counts[name] ?? 0) + 1;
    else if (inner && !distinctKeys(buf, bodyStart, e, inner[1], obj[inner[0]])) return false;
    at = e;
  }
  for (const name of Object.values(shape.maps)) {
    if ((counts[name] ?? 0) !== Object.keys((obj[name] ?? {}) as object).length) return false;
  }
  return true;
}

/**
 * Whether a serialized List*Request asks for the whole node: no filter, or a filter of only a state (field 2 of
 * PodSandboxFilter and ContainerFilter) and empty fields (an empty id or label selector filters nothing). An id,
 * a pod sandbox id, a label selector or an image asks about one pod or object.
 */
export function wholeNodeRequest(req: Buffer): boolean {
  for (let at = 0; at < req.length; ) {
    const e = frame(req, at, req.length);
    if (e < 0 || fieldNo !== 1 || wire !== 2) return false;
    for (let f = bodyStart, fe = e; f < fe; ) {
      const g = frame(req, f, fe);
      // (`as number`: the check above narrowed the module's fieldNo, which frame() has set anew)
      if (g < 0 || ((fieldNo as number) !== 2 && !(wire === 2 && bodyStart === g))) return false;
      f = g;
    }
    at = e;
  }
  return true;
}
