/**
 * The flight recorder over socket.io (`nodelet:recorder:follow` → `nodelet:recorder`): the pod's rows since `from`
 * replayed, then new rows live; bad input and a node without a recorder answer `nodelet:recorder:error`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { io as connect, type Socket } from 'socket.io-client';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { FlightRecorder } from '../recorder/recorder.ts';
import { loadSqlite } from '../recorder/store.ts';
import type { RecorderEntry } from '../recorder/types.ts';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import type { ClientToServerEvents, ServerToClientEvents } from './types.ts';

const T0 = Date.UTC(2026, 10, 26, 6, 0, 0);
let dir: string;
let rec: FlightRecorder;
let ts: TestServer;
let bare: TestServer;
const sockets: Socket[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'h6-socket-recorder-'));
  rec = new FlightRecorder({ clock: new FakeClock(T0), logger: new RecordingLogger().logger, open: await loadSqlite() }, { path: join(dir, 'r.db'), maxAgeMs: 3_600_000, maxBytes: 64 << 20, flushMs: 0 });
  rec.record({ time: new Date(T0 - 60_000).toISOString(), kind: 'kill', podUID: 'u1', reason: 'Killing' });
  rec.record({ time: new Date(T0 - 30_000).toISOString(), kind: 'backoff', podUID: 'u1', reason: 'CrashLoopBackOff', details: { delayMs: 10_000 } });
  rec.record({ time: new Date(T0 - 30_000).toISOString(), kind: 'kill', podUID: 'other', reason: 'Killing' });
  rec.flush();
  ts = await startTestServer(new FakeKubelet(), { recorder: rec });
  bare = await startTestServer(new FakeKubelet());
});
after(async () => {
  for (const s of sockets) s.disconnect();
  await ts.close();
  await bare.close();
  rec.close();
  rmSync(dir, { recursive: true, force: true });
});

function socket(server: TestServer): Socket<ServerToClientEvents, ClientToServerEvents> {
  const s: Socket<ServerToClientEvents, ClientToServerEvents> = connect(server.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, ...server.consoleTls });
  sockets.push(s);
  return s;
}

it('replays the pod\'s rows since `from`, oldest first, then delivers new rows as they are written', async () => {
  const s = socket(ts);
  const got: RecorderEntry[] = [];
  s.on('nodelet:recorder', (e) => got.push(e));
  s.emit('nodelet:recorder:follow', { podUID: 'u1', from: new Date(T0 - 45_000).toISOString() });
  await waitFor(() => got.length === 1);
  assert.deepEqual(got.map((e) => [e.kind, e.details?.delayMs]), [['backoff', 10_000]]);
  rec.record({ time: new Date(T0).toISOString(), kind: 'kill', podUID: 'u1', reason: 'Killing', message: 'Container app failed liveness probe, will be restarted' });
  rec.record({ time: new Date(T0).toISOString(), kind: 'kill', podUID: 'other', reason: 'Killing' });
  rec.flush();
  await waitFor(() => got.length === 2);
  assert.equal(got[1]?.message, 'Container app failed liveness probe, will be restarted');
});

it('bad input, and a node without a recorder, answer nodelet:recorder:error', async () => {
  const s = socket(ts);
  const err = new Promise<{ message: string }>((resolve) => s.once('nodelet:recorder:error', resolve));
  s.emit('nodelet:recorder:follow', { from: 'the dawn of time' } as never);
  assert.match((await err).message, /^from: not a time/);
  const b = socket(bare);
  const off = new Promise<{ message: string }>((resolve) => b.once('nodelet:recorder:error', resolve));
  b.emit('nodelet:recorder:follow', {});
  assert.equal((await off).message, 'the flight recorder is off on this node');
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), 'condition not met within 5 s');
}
