/** Every path of a JSON value, for tests that put a wrong value at each place of a manifest ([] is the root). */
export function jsonPaths(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const out = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...jsonPaths(x, [...at, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...jsonPaths(x, [...at, k]));
  return out;
}
