// A container's exit is announced before its state file is written: the kubelet builds the pod's status from the
// CRI event (GetContainerEvents: CONTAINER_STOPPED_EVENT with the pod's statuses), and the synchronous write held
// the event 5–49 ms. The record a CRI call reads is the exited one already; the file follows on the next turn of
// the loop, and a flush writes what is pending (shutdown).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateStore } from '../state/store.ts';
import type { ContainerRecord } from '../state/types.ts';
import { silentLogger } from '../util/logger.ts';
import type { RuntimeContext } from './context.ts';
import { onContainerExit } from './container-start.ts';
import { EventHub } from './events.ts';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-exit-test-'));
  const store = new StateStore(dir, silentLogger);
  const rec = { id: 'c1', sandboxId: 's1', state: 'CONTAINER_RUNNING', exitCode: 0, pid: 0, cgroupPath: '' } as unknown as ContainerRecord;
  store.containers.set(rec.id, rec);
  const events = new EventHub();
  const ctx = { rootDir: dir, store, cgroups: undefined, events, logger: silentLogger } as unknown as RuntimeContext;
  const file = join(dir, 'containers', 'c1.json');
  const saved = () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ContainerRecord).state : undefined);
  return { dir, store, events, ctx, file, saved, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const nextTurn = () => new Promise((r) => setImmediate(r));

test('an exit: the event goes out with the exited record before the state file is written, which follows', async () => {
  const f = setup();
  const atEvent: Array<[string, string | undefined, string | undefined]> = [];
  f.events.subscribe((e) => atEvent.push([e.type, f.store.containers.get(e.containerId)?.state, f.saved()]));
  onContainerExit(f.ctx, 'c1', { code: 0, signal: null });
  assert.deepEqual(atEvent, [['CONTAINER_STOPPED_EVENT', 'CONTAINER_EXITED', undefined]], 'announced first, the record already exited');
  await nextTurn();
  assert.equal(f.saved(), 'CONTAINER_EXITED', 'the file follows on the next turn of the loop');
  f.done();
});

test('a pending write: flush writes it now; a container removed before it is not written back', async () => {
  const f = setup();
  onContainerExit(f.ctx, 'c1', { code: 137, signal: null });
  f.store.flush();
  assert.equal(f.saved(), 'CONTAINER_EXITED');
  const g = setup();
  onContainerExit(g.ctx, 'c1', { code: 137, signal: null });
  g.store.deleteContainer('c1');
  await nextTurn();
  assert.equal(existsSync(g.file), false, 'RemoveContainer came first: no file comes back');
  f.done();
  g.done();
});

test("finished_at is when the exit was seen, before the cgroup's leftovers are killed and the cgroup removed", () => {
  const f = setup();
  // Cgroup cleanup that takes 30 ms (killAll signals what is left; rmdir waits for it on a loaded machine).
  const busy = (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end);
  };
  let cleanupStartNs = 0;
  const cgroups = { oomKills: () => 0, killAll: () => ((cleanupStartNs = Date.now() * 1e6), busy(30)), remove: () => busy(0) };
  const ctx = { ...(f.ctx as object), cgroups } as unknown as RuntimeContext;
  onContainerExit(ctx, 'c1', { code: 137, signal: 'SIGKILL' });
  const rec = f.store.containers.get('c1') as ContainerRecord;
  assert.ok(rec.finishedAt <= cleanupStartNs + 1e6, `finishedAt ${rec.finishedAt} is stamped before the cleanup began (${cleanupStartNs})`);
  f.done();
});
