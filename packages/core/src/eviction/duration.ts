/** Go time.ParseDuration ("1m30s", "500ms", "2h") → milliseconds; failures are values. */
export type DurationParse = { ok: true; ms: number } | { ok: false; reason: string };

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

export function parseGoDuration(text: string): DurationParse {
  const s = text.trim();
  if (s === '0') return { ok: true, ms: 0 };
  const sign = s.startsWith('-') ? -1 : 1;
  const body = s.replace(/^[+-]/, '');
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let ms = 0;
  let pos = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    ms += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    pos = re.lastIndex;
  }
  if (body.length === 0 || pos !== body.length) return { ok: false, reason: `time: invalid duration "${text}"` };
  return { ok: true, ms: sign * ms };
}
