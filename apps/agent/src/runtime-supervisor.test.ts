import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { embeddedRuntimePaths } from './runtime-launcher.ts';
import { DEFAULT_SUPERVISOR_CONFIG, RuntimeSupervisor, type RuntimeRestart, type SupervisorConfig } from './runtime-supervisor.ts';

const root = mkdtempSync(join(tmpdir(), 'nodelet-supervisor-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A runtime that lives as a set of fake pids; spawn() starts a new one and writes its pid file. */
function setup(config: Partial<SupervisorConfig> = {}) {
  const paths = embeddedRuntimePaths(join(root, String(n++)));
  mkdirSync(paths.dir, { recursive: true });
  const clock = new FakeClock();
  const rec = new RecordingLogger();
  const live = new Set<number>();
  const answering = new Set<number>();
  const killed: number[] = [];
  const restarts: RuntimeRestart[] = [];
  const spawnedAt: number[] = [];
  let nextPid = 100;
  const spawn = async () => {
    const pid = nextPid++;
    live.add(pid);
    answering.add(pid);
    writeFileSync(paths.pidFile, `${pid}\n`);
    spawnedAt.push(clock.monotonic());
    return { ok: true as const, endpoint: paths.endpoint, embedded: true, spawnedPid: pid };
  };
  const current = () => nextPid - 1;
  const sup = new RuntimeSupervisor(
    {
      logger: rec.logger,
      clock,
      paths,
      spawn,
      isRuntime: (pid) => live.has(pid),
      probe: async () => answering.has(current()),
      kill: (pid) => {
        killed.push(pid);
        live.delete(pid);
      },
      onRestart: (r) => restarts.push(r),
    },
    config,
  );
  return { clock, rec, live, answering, killed, restarts, spawnedAt, spawn, sup, current };
}

test('a dead runtime is restarted with a capped exponential back-off, reset after a stable period', async () => {
  const s = setup();
  await s.spawn();
  s.spawnedAt.length = 0;
  s.sup.start();
  await s.clock.step(5_000);
  assert.equal(s.restarts.length, 0, 'a live, answering runtime is left alone');
  // It keeps dying as soon as it is up: waits 0.5, 1, 2, 4, 8, 10, 10 s (+ up to one check period) before each start.
  const waits: number[] = [];
  for (let i = 0; i < 7; i++) {
    const diedAt = s.clock.monotonic();
    s.live.delete(s.current());
    while (s.spawnedAt.length === i) await s.clock.step(50);
    waits.push((s.spawnedAt[i] ?? 0) - diedAt);
  }
  const expected = [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000];
  waits.forEach((w, i) => assert.ok(w >= (expected[i] ?? 0) && w <= (expected[i] ?? 0) + DEFAULT_SUPERVISOR_CONFIG.checkMs + 50, `restart ${i + 1} after ${w} ms, expected ${expected[i]}`));
  assert.equal(s.restarts.length, 7);
  assert.match(s.restarts[0]?.cause ?? '', /process 100 is gone/);
  assert.ok(s.rec.records.some((r) => r.level === 'warn' && r.msg === 'embedded runtime died; restarting it'));
  // Up for a minute: the next death waits 0.5 s again.
  await s.clock.step(61_000);
  const diedAt = s.clock.monotonic();
  s.live.delete(s.current());
  while (s.spawnedAt.length === 7) await s.clock.step(50);
  assert.ok((s.spawnedAt[7] ?? 0) - diedAt <= 500 + DEFAULT_SUPERVISOR_CONFIG.checkMs + 50, `after a stable minute: ${(s.spawnedAt[7] ?? 0) - diedAt} ms`);
  s.sup.stop();
  assert.equal(s.clock.pending(), 0);
});

test('a live runtime that stops answering is killed and restarted; one answering again is kept', async () => {
  const s = setup({ hungMs: 10_000 });
  await s.spawn();
  s.sup.start();
  const pid = s.current();
  s.answering.delete(pid);
  await s.clock.step(5_000);
  s.answering.add(pid);
  await s.clock.step(20_000);
  assert.deepEqual(s.killed, [], 'a runtime that answered again within hungMs is kept');
  s.answering.delete(pid);
  await s.clock.step(13_000);
  assert.deepEqual(s.killed, [pid]);
  assert.equal(s.restarts.length, 1);
  assert.match(s.restarts[0]?.cause ?? '', /did not answer/);
  s.sup.stop();
});

test('a pid reused by another process, or no pid file, counts as dead', async () => {
  const s = setup();
  s.sup.start();
  await s.clock.step(DEFAULT_SUPERVISOR_CONFIG.checkMs + 750);
  assert.equal(s.restarts.length, 1, 'no pid file: started');
  assert.match(s.restarts[0]?.cause ?? '', /no pid in/);
  s.live.delete(s.current()); // what is at that pid now is not the runtime
  await s.clock.step(DEFAULT_SUPERVISOR_CONFIG.checkMs + 1_500);
  assert.equal(s.restarts.length, 2);
  s.sup.stop();
});
