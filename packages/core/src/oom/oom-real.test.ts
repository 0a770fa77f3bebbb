/**
 * As root on a cgroup v1 host: a process OOM-killed in a throwaway memory cgroup (/nodelet-test-oom-<rand>,
 * 16 MiB limit) is seen through the real /dev/kmsg source and parsed into an event naming that cgroup.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { KmsgFileSource } from './kmsg-source.ts';
import { OomWatcher } from './oom-watcher.ts';
import type { OomEvent } from './types.ts';

const MEM = '/sys/fs/cgroup/memory';
const skip = process.getuid?.() !== 0 ? 'needs root' : !existsSync(`${MEM}/memory.limit_in_bytes`) ? 'no cgroup v1 memory hierarchy' : false;

test('real OOM kill in a test memory cgroup is reported from /dev/kmsg', { skip }, async () => {
  const name = `/nodelet-test-oom-${randomBytes(4).toString('hex')}`;
  const dir = `${MEM}${name}`;
  const clock = new FakeClock();
  const events: OomEvent[] = [];
  const systemOoms: string[] = [];
  const w = new OomWatcher({ source: new KmsgFileSource({ clock, logger: nullLogger }), clock, logger: nullLogger, sink: { systemOom: (_e, m) => systemOoms.push(m) } });
  w.subscribe((e) => events.push(e));
  w.start();
  mkdirSync(dir);
  try {
    writeFileSync(`${dir}/memory.limit_in_bytes`, String(16 * 2 ** 20));
    const r = spawnSync('/bin/sh', ['-c', `echo $$ > ${dir}/cgroup.procs && exec dd if=/dev/zero of=/dev/null bs=64M count=1`], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.signal, 'SIGKILL', `dd should be OOM-killed: status ${r.status} ${r.stderr}`);
    await clock.step(1000);
    const mine = events.filter((e) => e.taskCgroup === name);
    assert.equal(mine.length, 1, JSON.stringify(events));
    assert.equal(mine[0]?.processName, 'dd');
    assert.equal(mine[0]?.constraint, 'CONSTRAINT_MEMCG');
    assert.ok((mine[0]?.pid ?? 0) > 0);
    assert.deepEqual(systemOoms, [], 'a memcg kill outside pods is not a SystemOOM');
  } finally {
    w.stop();
    for (let i = 0; i < 50 && existsSync(dir); i++) {
      try {
        rmdirSync(dir);
      } catch {
        await new Promise((res) => setImmediate(res));
      }
    }
  }
  assert.ok(!existsSync(dir), 'test cgroup removed');
});
