/**
 * ListPodSandbox and ListContainers answers encoded once per change. The agent asks for them ≈ 70 times a minute
 * at steady state and the answer is the same items every time, but protobufjs encoded every item of every answer
 * again (`Container$encode`, `writeStringBuffer`, `fork`/`ldelim` ≈ 20 % of the runtime's busy samples at 110 pods,
 * and much of its GC). Two halves:
 * - ListItems.of(record): a record's list item, the same frozen object while every field of the item is the same
 *   value (a record's state changes in place; its config objects are replaced, never edited);
 * - withListFrames(service): the RuntimeService definition whose two list serializers encode each frozen item once.
 *   A repeated message field is encoded as its items' framed encodings one after another, and these answers have
 *   no other field, so the answer is the concatenation of its items' encodings as one-item answers.
 */
import type * as grpc from '@grpc/grpc-js';

type Obj = Record<string, unknown>;

const isPlain = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);

/** Same keys and, per key, the same value, or (an object the conversion builds afresh) the same values one level down. */
function sameFields(a: Obj, b: Obj, nested = true): boolean {
  let keys = 0;
  // for-in, not Object.keys: no array per comparison (a list call compares every item)
  for (const k in a) {
    keys++;
    const x = a[k];
    const y = b[k];
    if (x !== y && !(nested && isPlain(x) && isPlain(y) && sameFields(x, y, false))) return false;
  }
  for (const _ in b) keys--;
  return keys === 0;
}

/** A record's list item, kept while converting the record again gives the same fields. */
export class ListItems<R extends object, I extends object> {
  private readonly items = new WeakMap<R, I>();

  constructor(private readonly convert: (record: R) => I) {}

  of(record: R): I {
    const fresh = this.convert(record);
    const last = this.items.get(record);
    if (last && sameFields(last as Obj, fresh as Obj)) return last;
    // Frozen (its own fields only: the objects it points to are the record's config's): the serializer keys on it.
    this.items.set(record, Object.freeze(fresh));
    return fresh;
  }
}

const LIST_FIELDS: Record<string, string> = { ListPodSandbox: 'items', ListContainers: 'containers' };

/** `service` with ListPodSandbox and ListContainers serialized from each frozen item's encoding, made once. */
export function withListFrames(service: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = { ...service };
  for (const [rpc, field] of Object.entries(LIST_FIELDS)) {
    const def = service[rpc];
    if (!def) continue;
    const frames = new WeakMap<object, Buffer>();
    const encodeOne = (item: object): Buffer => {
      let f = frames.get(item);
      if (!f) {
        f = def.responseSerialize({ [field]: [item] });
        if (Object.isFrozen(item)) frames.set(item, f);
      }
      return f;
    };
    out[rpc] = { ...def, responseSerialize: (res: unknown) => Buffer.concat((((res as Obj)[field] ?? []) as object[]).map(encodeOne)) };
  }
  return out;
}
