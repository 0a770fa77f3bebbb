/** Go-style duration strings as KubeletConfiguration and the kubelet's flags use them ("20s", "1m30s", "300ms"). */
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export type DurationResult = { ok: true; ms: number } | { ok: false; reason: string };

/** Parses "1h2m3.5s"-style durations into milliseconds. A bare "0" is allowed, as in Go. */
export function parseDuration(text: string): DurationResult {
  const s = text.trim();
  if (s === '0') return { ok: true, ms: 0 };
  const re = /(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  if (s.length === 0) return { ok: false, reason: `invalid duration "${text}"` };
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m || m.index !== pos) return { ok: false, reason: `invalid duration "${text}" (use e.g. "20s", "1m30s", "300ms")` };
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? 0);
    pos = re.lastIndex;
  }
  return { ok: true, ms: Math.round(total) };
}

/** Formats milliseconds the way Go prints durations ("3m0s", "1.5s", "300ms"). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
