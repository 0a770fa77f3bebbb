import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { realClock } from '@nodelet/core/util';
import { RecordingLogger } from '@nodelet/core/testing';
import { embeddedRuntimePaths, ensureRuntime, probeEndpoint, type RuntimePaths } from './runtime-launcher.ts';

const root = mkdtempSync(join(tmpdir(), 'nodelet-launcher-'));
const pids: number[] = [];
after(() => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

/** A stand-in runtime: listens on the socket until killed. */
const listener = (p: RuntimePaths) => ({
  file: process.execPath,
  args: ['-e', "require('net').createServer().listen(process.argv[1]); console.log('fake runtime up')", p.socket],
});

describe('ensureRuntime', () => {
  it('spawns the embedded runtime detached when nothing answers, writes its pid file, then reuses it', async () => {
    const rec = new RecordingLogger();
    const first = await ensureRuntime(root, undefined, { logger: rec.logger, clock: realClock, command: listener });
    assert.ok(first.ok && first.spawnedPid, JSON.stringify(first));
    if (!first.ok || !first.spawnedPid) return;
    pids.push(first.spawnedPid);
    const paths = embeddedRuntimePaths(root);
    assert.equal(first.endpoint, `unix://${join(root, 'runtime', 'nodelet.sock')}`);
    assert.equal(readFileSync(paths.pidFile, 'utf8').trim(), String(first.spawnedPid));
    assert.ok(await probeEndpoint(first.endpoint));
    assert.ok(rec.records.some((r) => r.msg === 'runtime ready'));

    const second = await ensureRuntime(root, undefined, { logger: rec.logger, clock: realClock, command: () => assert.fail('must not spawn again') });
    assert.deepEqual(second, { ok: true, endpoint: first.endpoint, embedded: true });
    assert.ok(existsSync(paths.logFile));
  });

  it('a pid file naming a process that is not the runtime (pid reused) is not waited for', async () => {
    const other = join(root, 'reused');
    const paths = embeddedRuntimePaths(other);
    mkdirSync(paths.dir, { recursive: true });
    writeFileSync(paths.pidFile, `${process.pid}\n`); // alive, but this test, not a runtime
    const rec = new RecordingLogger();
    const r = await ensureRuntime(other, undefined, { logger: rec.logger, clock: realClock, command: listener });
    assert.ok(r.ok && r.spawnedPid && r.spawnedPid !== process.pid, JSON.stringify(r));
    if (r.ok && r.spawnedPid) pids.push(r.spawnedPid);
    assert.ok(!rec.records.some((x) => /not answering yet; waiting/.test(x.msg)), 'did not wait on the unrelated process');
  });

  it('reports a runtime that exits at once', async () => {
    const other = join(root, 'failing');
    const r = await ensureRuntime(other, undefined, {
      logger: new RecordingLogger().logger,
      clock: realClock,
      command: () => ({ file: process.execPath, args: ['-e', 'process.exit(3)'] }),
    });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.reason, 'RuntimeSpawnFailed');
      assert.match(r.message, /exited with 3/);
    }
  });

  it('an explicit endpoint that is absent is reported, not spawned', async () => {
    const rec = new RecordingLogger();
    const ep = `unix://${join(root, 'absent.sock')}`;
    const r = await ensureRuntime(root, ep, { logger: rec.logger, clock: realClock, command: () => assert.fail('no spawn') });
    assert.deepEqual(r, { ok: false, endpoint: ep, reason: 'RuntimeUnavailable', message: `nothing answers at ${ep}` });
    assert.ok(rec.records.some((x) => x.level === 'warn'));
  });
});
