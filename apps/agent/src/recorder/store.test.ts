// The flight recorder's SQLite store: paging with a cursor over the real database, trimming by age and by size
// (oldest first, injected times), the file persisted, and a corrupt file moved aside with a log line naming it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingLogger } from '@nodelet/core/testing';
import { checkQuery } from './query.ts';
import { loadSqlite, RecorderStore, type OpenDatabase, type PendingRow } from './store.ts';

const T0 = Date.UTC(2026, 10, 26, 6, 0, 0);
const row = (i: number, over: Partial<PendingRow['entry']> = {}): PendingRow => ({
  timeMs: T0 + i * 1000,
  count: 1,
  entry: { time: '', kind: 'kill', podUID: i % 2 ? 'odd' : 'even', namespace: 'default', name: 'web', container: 'app', reason: 'Killing', message: `row ${i} ${'x'.repeat(200)}`, ...over },
});

describe('RecorderStore', () => {
  let dir: string;
  let open: OpenDatabase;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'h6-recorder-store-'));
    open = await loadSqlite();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("bounds SQLite's page cache to 256 KiB (its default 2000 KiB would be the agent's RSS)", () => {
    let db: ReturnType<OpenDatabase> | undefined;
    const s = RecorderStore.open((p) => (db = open(p)), join(dir, 'cache.db'), new RecordingLogger().logger, T0);
    assert.equal(db?.pragma('cache_size', { simple: true }), -256);
    s.close();
  });

  it('pages 25 rows of one pod 10 at a time with the cursor, oldest first and newest first', () => {
    const s = RecorderStore.open(open, join(dir, 'page.db'), new RecordingLogger().logger, T0);
    s.write(Array.from({ length: 50 }, (_, i) => row(i)));
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = s.query(checkQuery({ podUID: 'odd', limit: 10, ...(cursor ? { cursor } : {}) }, T0 + 3_600_000));
      seen.push(...p.entries.map((e) => Number(e.message?.split(' ')[1])));
      cursor = p.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, Array.from({ length: 25 }, (_, i) => 2 * i + 1));
    const newest = s.query(checkQuery({ limit: 3, order: 'desc' }, T0 + 3_600_000));
    assert.deepEqual(newest.entries.map((e) => e.message?.split(' ')[1]), ['49', '48', '47']);
    assert.equal(newest.entries[0]?.time, new Date(T0 + 49_000).toISOString());
    s.close();
  });

  it('a grown span keeps its row (same id, new last time and count); a span overlapping `from` is found', () => {
    const s = RecorderStore.open(open, join(dir, 'span.db'), new RecordingLogger().logger, T0);
    const span: PendingRow = { timeMs: T0, lastMs: T0, count: 1, entry: { time: '', kind: 'probe', podUID: 'u', reason: 'success' } };
    s.write([span]);
    const id = span.id;
    span.count = 600;
    span.lastMs = T0 + 600_000;
    s.write([span]);
    assert.equal(span.id, id);
    const page = s.query(checkQuery({ from: T0 + 300_000 }, T0 + 3_600_000));
    assert.deepEqual(page.entries.map((e) => [e.id, e.count, e.time, e.last]), [[id, 600, new Date(T0).toISOString(), new Date(T0 + 600_000).toISOString()]]);
    s.close();
  });

  it('trims by age: rows (and spans by their last time) older than the bound go', () => {
    const s = RecorderStore.open(open, join(dir, 'age.db'), new RecordingLogger().logger, T0);
    s.write([...Array.from({ length: 10 }, (_, i) => row(i)), { timeMs: T0, lastMs: T0 + 9_500, count: 9, entry: { time: '', kind: 'probe', reason: 'success' } }]);
    assert.equal(s.trim(T0 + 5_000, 64 << 20), 5);
    const left = s.query(checkQuery({}, T0 + 3_600_000)).entries;
    assert.deepEqual(left.map((e) => e.kind === 'probe' ? 'span' : e.message?.split(' ')[1]), ['span', '5', '6', '7', '8', '9']);
    s.close();
  });

  it('trims by size: the oldest rows go until the rows take under the cap, and the file shrinks', () => {
    const path = join(dir, 'size.db');
    const s = RecorderStore.open(open, path, new RecordingLogger().logger, T0);
    for (let b = 0; b < 20; b++) s.write(Array.from({ length: 500 }, (_, i) => row(b * 500 + i, { message: `row ${b * 500 + i} ${'y'.repeat(900)}` })));
    const before = s.bytes();
    assert.ok(before > 8 << 20, `10000 rows of ~1 KiB take ${before} bytes`);
    const cap = 2 << 20;
    const removed = s.trim(0, cap);
    assert.ok(s.bytes() <= cap, `${s.bytes()} bytes after the trim`);
    assert.ok(statSync(path).size <= cap + (64 << 10), `file ${statSync(path).size} bytes after the incremental vacuum`);
    const oldest = s.query(checkQuery({ limit: 1 }, T0 + 86_400_000)).entries[0];
    assert.equal(oldest?.message?.split(' ')[1], String(removed), 'the oldest rows went first');
    assert.equal(s.rows(), 10_000 - removed);
    s.close();
  });

  it('persists across a reopen', () => {
    const path = join(dir, 'again.db');
    const a = RecorderStore.open(open, path, new RecordingLogger().logger, T0);
    a.write([row(1)]);
    a.close();
    const b = RecorderStore.open(open, path, new RecordingLogger().logger, T0);
    assert.equal(b.rows(), 1);
    b.close();
  });

  it('moves a corrupt file aside with a log line naming it, and starts clean', () => {
    const sub = join(dir, 'corrupt');
    const path = join(sub, 'recorder.db');
    const first = RecorderStore.open(open, path, new RecordingLogger().logger, T0);
    first.close();
    writeFileSync(path, Buffer.alloc(8192, 'garbage!'));
    const log = new RecordingLogger();
    const s = RecorderStore.open(open, path, log.logger, T0 + 1);
    assert.equal(s.rows(), 0);
    s.write([row(1)]);
    assert.equal(s.rows(), 1);
    s.close();
    const line = log.records.find((r) => r.level === 'error');
    assert.equal(line?.msg, 'flight recorder database is corrupt: moved aside, starting with an empty one');
    assert.equal(line?.file, path);
    assert.equal(line?.movedTo, `${path}.corrupt-${T0 + 1}`);
    assert.ok(existsSync(`${path}.corrupt-${T0 + 1}`));
    assert.deepEqual(readdirSync(sub).filter((f) => f.startsWith('recorder.db.corrupt')), [`recorder.db.corrupt-${T0 + 1}`]);
  });
});
