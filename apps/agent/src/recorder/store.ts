/**
 * The flight recorder's SQLite file (better-sqlite3, loaded by a dynamic import when the recorder starts, so the
 * agent without a recorder never loads the native addon). WAL mode, incremental auto-vacuum (trimmed pages go back
 * to the file system), one transaction per written batch. A file that is not a sound database is moved aside
 * (`recorder.db.corrupt-<ms>`) with a log line naming it, and the store starts clean.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '@nodelet/core/util';
import { encodeCursor, querySql, type CheckedQuery } from './query.ts';
import type { RecorderEntry, RecorderEntryInput, RecorderKind, RecorderPage } from './types.ts';

/** The part of better-sqlite3's API the store uses. */
interface Statement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}
export interface SqliteDatabase {
  prepare(sql: string): Statement;
  pragma(source: string, options?: { simple: boolean }): unknown;
  exec(sql: string): void;
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  close(): void;
}
export type OpenDatabase = (path: string) => SqliteDatabase;

/** A row to write: new (no id) or a span that grew (its id, the new last time and count). */
export interface PendingRow {
  entry: RecorderEntryInput;
  timeMs: number;
  lastMs?: number;
  count: number;
  id?: number;
}

interface Row {
  id: number;
  time: number;
  last: number | null;
  count: number;
  kind: string;
  pod_uid: string | null;
  namespace: string | null;
  name: string | null;
  container: string | null;
  reason: string | null;
  message: string | null;
  details: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER NOT NULL, last INTEGER, count INTEGER NOT NULL DEFAULT 1,
  kind TEXT NOT NULL, pod_uid TEXT, namespace TEXT, name TEXT, container TEXT, reason TEXT, message TEXT, details TEXT
);
CREATE INDEX IF NOT EXISTS entries_time ON entries (time, id);
CREATE INDEX IF NOT EXISTS entries_pod ON entries (pod_uid, time, id);
`;

/** better-sqlite3, imported on first use (a native addon: external to the esbuild bundle, loaded from node_modules). */
export async function loadSqlite(): Promise<OpenDatabase> {
  const specifier = 'better-sqlite3'; // typed here (SqliteDatabase), not by @types; a runtime import in the bundle too
  const mod = (await import(specifier)) as { default: new (path: string) => SqliteDatabase };
  return (path) => new mod.default(path);
}

function toEntry(r: Row): RecorderEntry {
  return {
    id: r.id,
    time: new Date(r.time).toISOString(),
    ...(r.last !== null ? { last: new Date(r.last).toISOString() } : {}),
    count: r.count,
    kind: r.kind as RecorderKind,
    ...(r.pod_uid !== null ? { podUID: r.pod_uid } : {}),
    ...(r.namespace !== null ? { namespace: r.namespace } : {}),
    ...(r.name !== null ? { name: r.name } : {}),
    ...(r.container !== null ? { container: r.container } : {}),
    ...(r.reason !== null ? { reason: r.reason } : {}),
    ...(r.message !== null ? { message: r.message } : {}),
    ...(r.details !== null ? { details: JSON.parse(r.details) as Record<string, unknown> } : {}),
  };
}

/** The entry a pending row becomes once written (what followers receive). */
export function pendingEntry(p: PendingRow): RecorderEntry {
  const { time: _t, last: _l, count: _c, ...rest } = p.entry;
  return {
    ...rest,
    id: p.id ?? 0,
    time: new Date(p.timeMs).toISOString(),
    ...(p.lastMs !== undefined ? { last: new Date(p.lastMs).toISOString() } : {}),
    count: p.count,
  };
}

export class RecorderStore {
  private readonly insert: Statement;
  private readonly update: Statement;

  private constructor(
    private readonly db: SqliteDatabase,
    readonly path: string,
  ) {
    this.insert = db.prepare(
      'INSERT INTO entries (time, last, count, kind, pod_uid, namespace, name, container, reason, message, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.update = db.prepare('UPDATE entries SET last = ?, count = ?, message = ?, details = ? WHERE id = ?');
  }

  /** Opens (or creates) the file; a corrupt one is moved aside and logged, and a new one created. */
  static open(open: OpenDatabase, path: string, logger: Logger, nowMs: number): RecorderStore {
    mkdirSync(dirname(path), { recursive: true });
    try {
      return RecorderStore.openChecked(open, path);
    } catch (err) {
      const aside = `${path}.corrupt-${nowMs}`;
      logger.error('flight recorder database is corrupt: moved aside, starting with an empty one', { file: path, movedTo: aside, err: (err as Error).message });
      for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
      return RecorderStore.openChecked(open, path);
    }
  }

  private static openChecked(open: OpenDatabase, path: string): RecorderStore {
    const db = open(path);
    try {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
      db.pragma('auto_vacuum = INCREMENTAL'); // takes effect on a new file (before the first table)
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('journal_size_limit = 4194304');
      // SQLite's default page cache grows to 2000 KiB of the agent's RSS as the file grows; the recorder appends and
      // reads back recent rows, for which 256 KiB of pages is plenty (the kernel's page cache holds the rest).
      db.pragma('cache_size = -256');
      db.exec(SCHEMA);
      return new RecorderStore(db, path);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Writes the rows in one transaction; a new row gets its id, a grown span is updated (re-inserted if trimmed). */
  write(rows: PendingRow[]): void {
    this.db.transaction(() => {
      for (const p of rows) {
        const e = p.entry;
        const details = e.details ? JSON.stringify(e.details) : null;
        if (p.id !== undefined && this.update.run(p.lastMs ?? null, p.count, e.message ?? null, details, p.id).changes > 0) continue;
        const r = this.insert.run(p.timeMs, p.lastMs ?? null, p.count, e.kind, e.podUID ?? null, e.namespace ?? null, e.name ?? null, e.container ?? null, e.reason ?? null, e.message ?? null, details);
        p.id = Number(r.lastInsertRowid);
      }
    })();
  }

  query(c: CheckedQuery): RecorderPage {
    const { sql, params } = querySql(c);
    const rows = this.db.prepare(sql).all(...params) as Row[];
    const more = rows.length > c.limit;
    const page = more ? rows.slice(0, c.limit) : rows;
    const tail = page[page.length - 1];
    return { entries: page.map(toEntry), ...(more && tail ? { nextCursor: encodeCursor(tail.time, tail.id) } : {}) };
  }

  rows(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;
  }

  /** Bytes the rows take in the file (pages in use; free pages are returned by the incremental vacuum). */
  bytes(): number {
    const pageSize = Number(this.db.pragma('page_size', { simple: true }));
    const pages = Number(this.db.pragma('page_count', { simple: true }));
    const free = Number(this.db.pragma('freelist_count', { simple: true }));
    return (pages - free) * pageSize;
  }

  /** Deletes rows older than `beforeMs` (a span by its last result), then the oldest until the rows take under maxBytes. */
  trim(beforeMs: number, maxBytes: number): number {
    let removed = this.db.prepare('DELETE FROM entries WHERE COALESCE(last, time) < ?').run(beforeMs).changes;
    for (let i = 0; i < 20; i++) {
      const used = this.bytes();
      if (used <= maxBytes) break;
      const rows = this.rows();
      if (rows === 0) break;
      // Down to 90 % of the cap, in proportion to the rows (at least 1 % of them): few passes, no thrashing at the cap.
      const n = Math.max(Math.ceil(rows / 100), Math.ceil((rows * (used - maxBytes * 0.9)) / used));
      removed += this.db.prepare('DELETE FROM entries WHERE id IN (SELECT id FROM entries ORDER BY time, id LIMIT ?)').run(n).changes;
      this.db.pragma('incremental_vacuum');
    }
    if (removed > 0) {
      this.db.pragma('incremental_vacuum');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    }
    return removed;
  }

  close(): void {
    this.db.close();
  }
}
