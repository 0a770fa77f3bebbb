/**
 * Windowing for the log view: which lines are in the DOM for a scroll position. Every row is `rowHeight` px; a
 * line takes one row, or (wrap on) as many rows as its width in characters needs at `cols` characters per row
 * (a monospace font, breaking anywhere, tabs shown as TAB_WIDTH spaces). Pure: the view measures, this counts.
 */
export const TAB_WIDTH = 4;

/** The text as shown: tabs expanded (so a row's width in characters is its length). */
export function displayText(text: string): string {
  return text.includes('\t') ? text.replace(/\t/g, ' '.repeat(TAB_WIDTH)) : text;
}

/** Rows a line needs: 1 without wrap or for an empty line, else ceil(length / cols). */
export function rowsOf(length: number, cols: number, wrap: boolean): number {
  if (!wrap || length === 0) return 1;
  return Math.max(1, Math.ceil(length / Math.max(1, cols)));
}

/** offsets[i] = rows before line i; offsets[n] = all rows. */
export function rowOffsets(lengths: readonly number[], cols: number, wrap: boolean): Int32Array {
  const out = new Int32Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) out[i + 1] = (out[i] ?? 0) + rowsOf(lengths[i] ?? 0, cols, wrap);
  return out;
}

/** The line whose rows contain `row` (binary search over the offsets). */
export function lineAtRow(offsets: Int32Array, row: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] ?? 0) <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface LogWindow {
  /** First and one-past-last line to render. */
  start: number;
  end: number;
  /** Pixels above the first rendered line, and the whole content's height. */
  top: number;
  height: number;
}

/** The lines visible at `scrollTop` in a viewport of `viewport` px, plus `overscan` lines each side. */
export function visibleWindow(offsets: Int32Array, rowHeight: number, scrollTop: number, viewport: number, overscan = 20): LogWindow {
  const n = offsets.length - 1;
  const height = (offsets[n] ?? 0) * rowHeight;
  if (n <= 0) return { start: 0, end: 0, top: 0, height: 0 };
  const first = lineAtRow(offsets, Math.max(0, Math.floor(scrollTop / rowHeight)));
  const last = lineAtRow(offsets, Math.max(0, Math.ceil((scrollTop + viewport) / rowHeight)));
  const start = Math.max(0, first - overscan);
  const end = Math.min(n, last + 1 + overscan);
  return { start, end, top: (offsets[start] ?? 0) * rowHeight, height };
}
