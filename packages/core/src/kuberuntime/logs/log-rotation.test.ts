// The container log manager against a real temporary directory and a recording CRI. Expected file sets follow
// pkg/kubelet/logs/container_log_manager.go (v1.28) and its tests (TestRotateLogs, TestCleanupUnusedLog,
// TestRemoveExcessLog, TestCompressLog, TestRotateLatestLog): keep MaxFiles − 2 rotated files, compress all but
// the newest rotation, name it <log>.<20060102-150405>, reopen through the runtime, rename back when that fails.
process.env.TZ = 'UTC';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { FakeClock } from '../../util/clock.ts';
import { nullLogger } from '../../util/logger.ts';
import { nodeLogRotationFs } from '../../kubelet/log-rotation-fs.ts';
import { checkLogRotatePolicy, ContainerLogManager, rotationTimestamp, splitUnusedLogs } from './log-rotation.ts';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'nodelet-logrot-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A runtime with one container per entry; reopen creates a new empty file at the log path (as runtimes do). */
function fakeCri(containers: Array<{ id: string; state: string; logPath: string }>, reopenFails = false) {
  const reopened: string[] = [];
  const statusAsked: string[] = [];
  const cri = {
    async listContainers() {
      return { containers: containers.map((c) => ({ id: c.id, state: c.state })) } as never;
    },
    async containerStatus(req: { containerId: string }) {
      statusAsked.push(req.containerId);
      const c = containers.find((x) => x.id === req.containerId)!;
      return { status: { id: c.id, logPath: c.logPath } } as never;
    },
    async reopenContainerLog(req: { containerId: string }) {
      reopened.push(req.containerId);
      if (reopenFails) throw new Error('rpc error: code = Unknown desc = container is not running');
      writeFileSync(containers.find((x) => x.id === req.containerId)!.logPath, '');
      return {} as never;
    },
  };
  return { cri, reopened, statusAsked };
}

function manager(cri: ReturnType<typeof fakeCri>['cri'], clock: FakeClock, maxSize = 10, maxFiles = 4) {
  return new ContainerLogManager({ cri, clock, logger: nullLogger, fs: nodeLogRotationFs }, { maxSize, maxFiles });
}

describe('container log rotation', () => {
  it('keeps MaxFiles − 2 rotated files, compresses the older ones, rotates the current file and reopens it', async () => {
    const log = join(dir, '0.log');
    writeFileSync(log, 'x'.repeat(20));
    const files: Array<[string, string]> = [
      ['0.log.20251231-000000', 'a'],
      ['0.log.20251231-000000.gz', 'a'], // compressed twin exists: the plain one is a leftover
      ['0.log.20251231-000001.gz', 'b'],
      ['0.log.20251231-000002.gz', 'c'],
      ['0.log.20251231-000002.gz.tmp', 'c'], // an interrupted compression
      ['0.log.20251231-000003', 'rotated last time'],
    ];
    for (const [name, body] of files) writeFileSync(join(dir, name), body);
    const { cri, reopened } = fakeCri([{ id: 'c1', state: 'CONTAINER_RUNNING', logPath: log }]);
    const clock = new FakeClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    await manager(cri, clock).rotateLogs();
    assert.deepEqual(readdirSync(dir).sort(), ['0.log', '0.log.20251231-000002.gz', '0.log.20251231-000003.gz', '0.log.20260102-030405']);
    assert.equal(gunzipSync(readFileSync(join(dir, '0.log.20251231-000003.gz'))).toString(), 'rotated last time');
    assert.equal(readFileSync(join(dir, '0.log.20260102-030405'), 'utf8'), 'x'.repeat(20));
    assert.equal(readFileSync(log, 'utf8'), '');
    assert.deepEqual(reopened, ['c1']);
  });

  it('leaves a log below containerLogMaxSize and containers that are not running alone', async () => {
    const small = join(dir, 'small.log');
    const exited = join(dir, 'exited.log');
    writeFileSync(small, 'x'.repeat(9));
    writeFileSync(exited, 'x'.repeat(50));
    const { cri, reopened } = fakeCri([
      { id: 'small', state: 'CONTAINER_RUNNING', logPath: small },
      { id: 'exited', state: 'CONTAINER_EXITED', logPath: exited },
    ]);
    await manager(cri, new FakeClock()).rotateLogs();
    assert.deepEqual(readdirSync(dir).sort(), ['exited.log', 'small.log']);
    assert.deepEqual(reopened, []);
  });

  it('renames the file back when the runtime cannot reopen the log, to try again next round', async () => {
    const log = join(dir, '1.log');
    writeFileSync(log, 'y'.repeat(30));
    const { cri, reopened } = fakeCri([{ id: 'c', state: 'CONTAINER_RUNNING', logPath: log }], true);
    await manager(cri, new FakeClock()).rotateLogs();
    assert.deepEqual(readdirSync(dir), ['1.log']);
    assert.equal(readFileSync(log, 'utf8'), 'y'.repeat(30));
    assert.deepEqual(reopened, ['c']);
  });

  it('asks the runtime to reopen a log file that is missing', async () => {
    const log = join(dir, '2.log');
    const { cri, reopened } = fakeCri([{ id: 'gone', state: 'CONTAINER_RUNNING', logPath: log }]);
    await manager(cri, new FakeClock()).rotateLogs();
    assert.deepEqual(reopened, ['gone']);
    assert.ok(existsSync(log));
  });

  it('runs every 10 s once started, and not at all with a negative max size', async () => {
    const log = join(dir, '0.log');
    writeFileSync(log, 'z'.repeat(11));
    const { cri, reopened } = fakeCri([{ id: 'c', state: 'CONTAINER_RUNNING', logPath: log }]);
    const clock = new FakeClock();
    const m = manager(cri, clock);
    m.start();
    await clock.step(9_999);
    assert.deepEqual(reopened, []);
    await clock.step(1);
    await m.rotateLogs();
    assert.deepEqual(reopened, ['c']);
    m.stop();
    const off = manager(cri, clock, -1);
    off.start();
    assert.equal(off.enabled, false);
    writeFileSync(log, 'z'.repeat(11));
    await clock.step(60_000);
    assert.deepEqual(reopened, ['c']);
  });
});

describe('log paths', () => {
  it('asks ContainerStatus for a container\'s log path once, not on every pass; forgets containers that stopped', async () => {
    const containers = [{ id: 'a', state: 'CONTAINER_RUNNING', logPath: join(dir, 'a.log') }];
    writeFileSync(join(dir, 'a.log'), '');
    const { cri, statusAsked } = fakeCri(containers);
    const m = manager(cri, new FakeClock());
    await m.rotateLogs();
    await m.rotateLogs();
    assert.deepEqual(statusAsked, ['a']);
    containers.splice(0, 1, { id: 'b', state: 'CONTAINER_RUNNING', logPath: join(dir, 'b.log') });
    writeFileSync(join(dir, 'b.log'), 'x'.repeat(20)); // above maxSize: rotated at the path ContainerStatus gave
    await m.rotateLogs();
    containers.push({ id: 'a', state: 'CONTAINER_RUNNING', logPath: join(dir, 'a.log') });
    await m.rotateLogs();
    assert.deepEqual(statusAsked, ['a', 'b', 'a']);
    assert.ok(readdirSync(dir).some((f) => f.startsWith('b.log.')));
  });
});

describe('policy and names', () => {
  it('refuses MaxFiles below 2 with the kubelet\'s message', () => {
    assert.equal(checkLogRotatePolicy({ maxSize: 10, maxFiles: 1 }), 'invalid MaxFiles 1, must be > 1');
    assert.equal(checkLogRotatePolicy({ maxSize: 10, maxFiles: 2 }), undefined);
    assert.throws(() => manager(fakeCri([]).cri, new FakeClock(), 10, 0), /invalid MaxFiles 0, must be > 1/);
  });

  it('formats the rotation suffix as Go\'s 20060102-150405', () => {
    assert.equal(rotationTimestamp(Date.UTC(2006, 0, 2, 15, 4, 5)), '20060102-150405');
  });

  it('filterUnusedLogs: .tmp files and plain files with a .gz twin are unused', () => {
    const r = splitUnusedLogs(['a.log.1', 'a.log.1.gz', 'a.log.2', 'a.log.3.gz.tmp', 'a.log.4.gz']);
    assert.deepEqual(r, { inuse: ['a.log.1.gz', 'a.log.2', 'a.log.4.gz'], unused: ['a.log.1', 'a.log.3.gz.tmp'] });
  });
});
