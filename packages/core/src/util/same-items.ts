/** True when `a` and `b` hold the very same items (`===`) in the same order: a key of objects kept while unchanged. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
