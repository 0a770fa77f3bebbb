/**
 * Search in the log view: every case-insensitive occurrence of the query in the kept lines, and a line's text cut
 * into plain and highlighted pieces. Pure.
 */
export interface Match {
  /** Index of the line in the view's lines, and the occurrence's start in its (displayed) text. */
  line: number;
  start: number;
}

/** At most `limit` matches, in order; `limited` when there were more. */
export function findMatches(texts: readonly string[], query: string, limit = 10_000): { matches: Match[]; limited: boolean } {
  const q = query.toLowerCase();
  const matches: Match[] = [];
  if (!q) return { matches, limited: false };
  for (let line = 0; line < texts.length; line++) {
    const t = (texts[line] ?? '').toLowerCase();
    for (let at = t.indexOf(q); at !== -1; at = t.indexOf(q, at + q.length)) {
      if (matches.length === limit) return { matches, limited: true };
      matches.push({ line, start: at });
    }
  }
  return { matches, limited: false };
}

export interface Piece {
  text: string;
  /** 'hit' for an occurrence, 'current' for the selected one. */
  mark?: 'hit' | 'current';
}

/** A line's text as pieces; `current` is the start of the selected occurrence in this line, if any. */
export function highlight(text: string, query: string, current?: number): Piece[] {
  if (!query) return [{ text }];
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  const out: Piece[] = [];
  let from = 0;
  for (let at = lower.indexOf(q); at !== -1; at = lower.indexOf(q, at + q.length)) {
    if (at > from) out.push({ text: text.slice(from, at) });
    out.push({ text: text.slice(at, at + q.length), mark: at === current ? 'current' : 'hit' });
    from = at + q.length;
  }
  if (from < text.length || out.length === 0) out.push({ text: text.slice(from) });
  return out;
}
