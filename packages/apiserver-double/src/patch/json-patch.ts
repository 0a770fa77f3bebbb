/** RFC 6902 JSON patch (application/json-patch+json): add, remove, replace, move, copy, test. */
export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

export type JsonPatchResult = { ok: true; value: unknown } | { ok: false; reason: string };

function parsePointer(p: string): string[] {
  if (p === '') return [];
  if (!p.startsWith('/')) throw new Error(`invalid JSON pointer "${p}"`);
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: unknown, parts: string[]): { parent: any; last: string } {
  let cur: any = doc;
  for (const part of parts.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object' || !(part in cur)) throw new Error(`path does not exist: ${part}`);
    cur = cur[part];
  }
  if (cur === null || typeof cur !== 'object') throw new Error('parent is not a container');
  return { parent: cur, last: parts[parts.length - 1]! };
}

function getAt(doc: unknown, path: string): unknown {
  let cur: any = doc;
  for (const part of parsePointer(path)) {
    if (cur === null || typeof cur !== 'object' || !(part in cur)) throw new Error(`path ${path} does not exist`);
    cur = cur[part];
  }
  return cur;
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const parts = parsePointer(path);
  if (parts.length === 0) return value;
  const { parent, last } = parentOf(doc, parts);
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new Error(`index ${last} out of range`);
    parent.splice(i, 0, value);
  } else parent[last] = value;
  return doc;
}

function remove(doc: unknown, path: string): unknown {
  const parts = parsePointer(path);
  const { parent, last } = parentOf(doc, parts);
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) throw new Error(`index ${last} out of range`);
    parent.splice(i, 1);
  } else {
    if (!(last in parent)) throw new Error(`unable to remove nonexistent key: ${last}`);
    delete parent[last];
  }
  return doc;
}

export function applyJsonPatch(target: unknown, ops: unknown): JsonPatchResult {
  if (!Array.isArray(ops)) return { ok: false, reason: 'json patch must be an array of operations' };
  let doc: unknown = structuredClone(target);
  try {
    for (const op of ops as JsonPatchOp[]) {
      switch (op.op) {
        case 'add':
          doc = add(doc, op.path, structuredClone(op.value));
          break;
        case 'remove':
          doc = remove(doc, op.path);
          break;
        case 'replace':
          getAt(doc, op.path);
          doc = add(remove(doc, op.path), op.path, structuredClone(op.value));
          break;
        case 'move': {
          const v = getAt(doc, op.from ?? '');
          doc = add(remove(doc, op.from ?? ''), op.path, v);
          break;
        }
        case 'copy':
          doc = add(doc, op.path, structuredClone(getAt(doc, op.from ?? '')));
          break;
        case 'test':
          if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value))
            return { ok: false, reason: `testing value ${op.path} failed` };
          break;
        default:
          return { ok: false, reason: `Unexpected kind: ${String((op as { op?: unknown }).op)}` };
      }
    }
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  return { ok: true, value: doc };
}
