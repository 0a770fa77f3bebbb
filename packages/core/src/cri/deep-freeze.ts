/**
 * Freezes an object graph in place. A decoded CRI answer that is handed to several callers (list-memo.ts) is frozen
 * so that a caller that mutates it throws (in strict mode, which every module is) instead of corrupting the next one.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  // A Buffer (a `bytes` field) cannot be frozen while it has elements; none of the shared answers carries one.
  if (ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value as object)) deepFreeze(v);
  return value;
}
