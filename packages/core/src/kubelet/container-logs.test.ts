import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../util/clock.ts';
import { StatusCache } from '../container/cache.ts';
import { containerLogs } from './container-logs.ts';
import { container, cstatus, makePod, podStatus, sandbox } from '../kuberuntime/testing/builders.ts';

test('containerLogs: reasons and the previous instance', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-logs-'));
  try {
    await writeFile(join(dir, '0.log'), '2026-01-01T00:00:00.000000000Z stdout F first run\n');
    await writeFile(join(dir, '1.log'), '2026-01-01T00:01:00.000000000Z stdout F second run\n');
    const app = container('app');
    const pod = makePod({ name: 'web', containers: [app, container('idle')] });
    const cache = new StatusCache();
    cache.set('uid-web', podStatus(pod, [sandbox('s', 'ready')], [
      cstatus(app, 'running', { id: { type: 'fake', id: 'c1' }, restartCount: 1, logPath: join(dir, '1.log') }),
      cstatus(app, 'exited', { id: { type: 'fake', id: 'c0' }, logPath: join(dir, '0.log') }),
    ]), undefined, 1);
    const deps = { clock: new FakeClock(), cache, findPod: (ns: string, n: string) => (ns === 'default' && n === 'web' ? pod : undefined), isRunning: async () => false };
    const read = async (podName: string, c: string, previous = false) => {
      let out = '';
      const r = await containerLogs(deps, 'default', podName, c, { previous }, (s) => (out += s), new AbortController().signal);
      return r.ok ? out : r.reason;
    };
    assert.equal(await read('nope', 'app'), 'PodNotFound');
    assert.equal(await read('web', 'nope'), 'ContainerNotFound');
    assert.equal(await read('web', 'idle'), 'LogNotAvailable');
    assert.equal(await read('web', 'idle', true), 'NoPreviousContainer');
    assert.equal(await read('web', 'app'), 'second run\n');
    assert.equal(await read('web', 'app', true), 'first run\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
