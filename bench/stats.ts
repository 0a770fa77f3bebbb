/** Small helpers for bench tables: percentiles and fixed-width rows. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

/** The `n` largest of `values` with their indexes, largest first (which samples make a p99). */
export function slowest(values: number[], n: number): Array<readonly [index: number, value: number]> {
  return values.map((v, i) => [i, v] as const).sort((a, b) => b[1] - a[1]).slice(0, n);
}

export function fmtMs(v: number): string {
  return Number.isFinite(v) ? `${v.toFixed(0)} ms` : 'n/a';
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
