/** Formats milliseconds as Go's time.Duration String() does: 500ms, 1.5s, 3m0s, 1h2m3.25s. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${trim(rest)}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = `${trim(rest / 1000)}s`;
  const out = h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s;
  return `${neg ? '-' : ''}${out}`;
}

function trim(n: number): string {
  return String(Number(n.toFixed(9)));
}
