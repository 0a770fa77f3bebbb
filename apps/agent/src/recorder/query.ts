/**
 * recorder.query's input, checked and turned into one SQL statement: a time range (ISO or ms; an inverted or
 * unreadable range is a RecorderQueryError naming the field), a pod, kinds, and a page capped at MAX_PAGE with
 * a cursor (the last row's time and id), so that no query answers an unbounded page.
 */
import { DEFAULT_PAGE, MAX_PAGE, RECORDER_KINDS, RecorderQueryError, type RecorderKind, type RecorderQuery } from './types.ts';

export interface CheckedQuery {
  fromMs: number;
  toMs: number;
  podUID?: string;
  kinds?: RecorderKind[];
  limit: number;
  /** Rows strictly after (asc) / before (desc) this (time, id). */
  cursor?: { time: number; id: number };
  order: 'asc' | 'desc';
}

function timeOf(field: 'from' | 'to', v: string | number): number {
  const ms = typeof v === 'number' ? v : /^-?\d+$/.test(v.trim()) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(ms)) throw new RecorderQueryError(`${field}: ${JSON.stringify(v)} is not a time (an RFC 3339 time or milliseconds since the epoch)`);
  return ms;
}

export function encodeCursor(time: number, id: number): string {
  return `${time}.${id}`;
}

function decodeCursor(c: string): { time: number; id: number } {
  const m = /^(-?\d{1,16})\.(\d{1,16})$/.exec(c);
  if (!m) throw new RecorderQueryError(`cursor: ${JSON.stringify(c.slice(0, 40))} is not a cursor from a previous page`);
  return { time: Number(m[1]), id: Number(m[2]) };
}

export function checkQuery(q: RecorderQuery, nowMs: number): CheckedQuery {
  const fromMs = q.from === undefined ? 0 : timeOf('from', q.from);
  const toMs = q.to === undefined ? Math.max(nowMs, fromMs) : timeOf('to', q.to);
  if (fromMs > toMs) {
    throw new RecorderQueryError(`inverted time range: from (${new Date(fromMs).toISOString()}) is after to (${new Date(toMs).toISOString()})`);
  }
  const limit = q.limit ?? DEFAULT_PAGE;
  if (!Number.isInteger(limit) || limit < 1) throw new RecorderQueryError(`limit: ${limit} is not a positive integer`);
  const unknown = (q.kinds ?? []).filter((k) => !(RECORDER_KINDS as readonly string[]).includes(k));
  if (unknown.length) throw new RecorderQueryError(`kinds: unknown kind(s) ${unknown.join(', ')} (known: ${RECORDER_KINDS.join(', ')})`);
  const order = q.order ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw new RecorderQueryError(`order: ${JSON.stringify(order)} is neither asc nor desc`);
  return {
    fromMs,
    toMs,
    ...(q.podUID ? { podUID: q.podUID } : {}),
    ...(q.kinds?.length ? { kinds: q.kinds } : {}),
    limit: Math.min(limit, MAX_PAGE),
    ...(q.cursor ? { cursor: decodeCursor(q.cursor) } : {}),
    order,
  };
}

/** The SELECT for a checked query: one row more than the page tells whether a next page exists. */
export function querySql(c: CheckedQuery): { sql: string; params: Array<string | number> } {
  const where = ['time <= ?', 'COALESCE(last, time) >= ?'];
  const params: Array<string | number> = [c.toMs, c.fromMs];
  if (c.podUID) {
    where.push('pod_uid = ?');
    params.push(c.podUID);
  }
  if (c.kinds) {
    where.push(`kind IN (${c.kinds.map(() => '?').join(', ')})`);
    params.push(...c.kinds);
  }
  if (c.cursor) {
    where.push(c.order === 'asc' ? '(time > ? OR (time = ? AND id > ?))' : '(time < ? OR (time = ? AND id < ?))');
    params.push(c.cursor.time, c.cursor.time, c.cursor.id);
  }
  const dir = c.order === 'asc' ? 'ASC' : 'DESC';
  params.push(c.limit + 1);
  return { sql: `SELECT * FROM entries WHERE ${where.join(' AND ')} ORDER BY time ${dir}, id ${dir} LIMIT ?`, params };
}
