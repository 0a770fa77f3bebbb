import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { findBinary } from '../util/bins.ts';
import { isAlive } from '../util/proc.ts';
import { launch } from './launch.ts';
import { PAUSE_SCRIPT } from './scripts.ts';

const root = process.getuid?.() === 0;

test('sandbox holder: catatonit or the sh fallback, with its hostname, stopped by SIGTERM', { skip: !root && 'needs root' }, async () => {
  const cases: Array<[string, string]> = [['catatonit', findBinary('catatonit') ?? ''], ['sh loop', '']];
  for (const [name, pause] of cases) {
    if (name === 'catatonit' && !pause) continue;
    const argv = [findBinary('unshare')!, '--uts', '--net', '--ipc', '--pid', '--fork', '--', findBinary('sh')!, '-c', PAUSE_SCRIPT, 'pause', `h-${name.replace(' ', '-')}`];
    const r = await launch(argv, { env: { NODELET_NETNS: '1', NODELET_PAUSE: pause }, output: 'ignore' });
    assert.ok(r.ok, name);
    try {
      assert.ok(isAlive(r.initPid), `${name}: holder alive`);
      const host = execFileSync('nsenter', ['-t', String(r.initPid), '--uts', 'hostname']).toString().trim();
      assert.equal(host, `h-${name.replace(' ', '-')}`);
      const lo = execFileSync('nsenter', ['-t', String(r.initPid), '--net', 'cat', '/sys/class/net/lo/operstate']).toString().trim();
      assert.notEqual(lo, 'down', `${name}: lo is up`);
      const exited = new Promise((res) => r.child.once('exit', res));
      process.kill(r.initPid, 'SIGTERM');
      await exited;
      assert.equal(isAlive(r.initPid), false, `${name}: SIGTERM stops the holder`);
    } finally {
      if (isAlive(r.initPid)) process.kill(r.initPid, 'SIGKILL');
    }
  }
});

test('launch reports a setup failure from the err line', async () => {
  const r = await launch(['/bin/sh', '-c', 'echo "err nope: broken" >&3; exit 128'], { env: {}, output: 'ignore' });
  assert.deepEqual(r.ok ? 'ok' : r.message, 'nope: broken');
  const silent = await launch(['/bin/sh', '-c', 'exit 3'], { env: {}, output: 'ignore' });
  assert.equal(silent.ok, false);
  assert.match(silent.ok ? '' : silent.message, /code 3/);
});
