// recorder.* over tRPC: a page with a cursor, bad input as BAD_REQUEST with the reason (an inverted range, an
// unreadable time, a page cap instead of an unbounded answer), PRECONDITION_FAILED when the recorder is off.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import type { KubeletApi } from '@nodelet/core/kubelet';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { createStreamHub } from '../streams/hub.ts';
import { FlightRecorder } from '../recorder/recorder.ts';
import { loadSqlite } from '../recorder/store.ts';
import { MAX_PAGE } from '../recorder/types.ts';
import { appRouter } from './router.ts';

let dir: string;
let rec: FlightRecorder;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'h6-recorder-router-'));
  const clock = new FakeClock(Date.UTC(2026, 10, 26, 6, 0, 0));
  rec = new FlightRecorder({ clock, logger: new RecordingLogger().logger, open: await loadSqlite() }, { path: join(dir, 'r.db'), maxAgeMs: 3_600_000, maxBytes: 64 << 20, flushMs: 0 });
  for (let i = 0; i < MAX_PAGE + 5; i++) rec.record({ time: new Date(clock.now() - 10_000 + i).toISOString(), kind: 'kill', podUID: 'u', reason: 'Killing' });
  rec.flush();
});
after(() => {
  rec.close();
  rmSync(dir, { recursive: true, force: true });
});

function caller(withRecorder = true) {
  const kubelet = new FakeKubelet() as unknown as KubeletApi;
  return appRouter.createCaller({ kubelet, streams: createStreamHub(kubelet, withRecorder ? rec : undefined), user: { name: 't', groups: [] }, ...(withRecorder ? { recorder: rec } : {}) });
}

async function rejects(p: Promise<unknown>, code: TRPCError['code'], message: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof TRPCError, String(e));
    assert.equal(e.code, code);
    assert.match(e.message, message);
    return true;
  });
}

test('recorder.query: a huge limit over the whole range answers a capped page and a cursor to the rest', async () => {
  const first = await caller().recorder.query({ from: 0, to: 8.64e15, limit: 1_000_000 });
  assert.equal(first.entries.length, MAX_PAGE);
  assert.ok(first.nextCursor);
  const rest = await caller().recorder.query({ from: 0, to: 8.64e15, cursor: first.nextCursor });
  assert.equal(rest.entries.length, 5);
  assert.equal(rest.nextCursor, undefined);
});

test('recorder.query: an inverted range, an unreadable time or cursor → BAD_REQUEST naming the problem', async () => {
  await rejects(caller().recorder.query({ from: '2026-11-26T06:00:00Z', to: '2026-11-26T05:00:00Z' }), 'BAD_REQUEST', /^inverted time range: from \(2026-11-26T06:00:00.000Z\) is after to \(2026-11-26T05:00:00.000Z\)$/);
  await rejects(caller().recorder.query({ from: 'last tuesday' }), 'BAD_REQUEST', /not a time/);
  await rejects(caller().recorder.query({ cursor: 'x.y' }), 'BAD_REQUEST', /^cursor: "x.y" is not a cursor from a previous page$/);
  await rejects(caller().recorder.query({ limit: -1 }), 'BAD_REQUEST', /limit/);
});

test('recorder.query / stats without a recorder → PRECONDITION_FAILED', async () => {
  await rejects(caller(false).recorder.query({}), 'PRECONDITION_FAILED', /^the flight recorder is off on this node$/);
  assert.equal((await caller().recorder.stats()).rows, MAX_PAGE + 5);
});

test('recorder.onEntry: the newest rows since `from` of the pod first (oldest first), then new rows as they are written', async () => {
  const sub = await caller().recorder.onEntry({ podUID: 'u', from: 0 });
  const it = sub[Symbol.asyncIterator]();
  const first = await it.next();
  assert.equal(first.value?.podUID, 'u');
  for (let i = 1; i < 1000; i++) await it.next(); // the replay: the newest 1000 rows
  rec.record({ time: new Date().toISOString(), kind: 'backoff', podUID: 'u', reason: 'CrashLoopBackOff' });
  rec.flush();
  const live = await it.next();
  assert.equal(live.value?.kind, 'backoff');
  await it.return?.(undefined);
});
