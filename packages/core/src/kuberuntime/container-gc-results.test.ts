/**
 * What a container GC run reports (the console's GC page and the gc events show it) and how runs share the
 * runtime: removed names, freed log bytes, errors, joining, and the log files it may touch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CriError } from '../cri/types.ts';
import { gcContainer as c, gcWorld } from './testing/gc-fixture.ts';

const E = 'EXITED' as const;

test('removed containers take their log files; the result names them, oldest first, and counts the bytes', async () => {
  const w = await gcWorld([c('a', 'app', 0, 10, E), c('a', 'app', 1, 11, E), c('a', 'app', 2, 12, E)]);
  const r = await w.gc.garbageCollect('manual');
  // MaxPerPodContainer 1 (the default) keeps attempt 2.
  assert.deepEqual(r.removed, [`test-ns/a/app (${w.containerList[0]?.slice(0, 12)})`, `test-ns/a/app (${w.containerList[1]?.slice(0, 12)})`]);
  assert.equal(r.freedBytes, 200);
  assert.deepEqual([...w.fs.files.keys()], ['/var/log/pods/test-ns_a_a/app/2.log']);
  assert.equal(r.trigger, 'manual');
  assert.equal(r.time, new Date(w.clock.now()).toISOString());
  assert.deepEqual(w.gc.lastResult(), r);
});

test('a removed container takes its rotated log files too (the log manager\'s Clean), not its successor\'s', async () => {
  const w = await gcWorld([c('a', 'app', 0, 10, E), c('a', 'app', 1, 11, E)]);
  w.fs.files.set('/var/log/pods/test-ns_a_a/app/0.log.20260101-000000.gz', 5);
  w.fs.files.set('/var/log/pods/test-ns_a_a/app/0.log.20260101-000010', 7);
  w.fs.files.set('/var/log/pods/test-ns_a_a/app/1.log.20260101-000020', 3);
  const r = await w.gc.garbageCollect();
  assert.equal(r.freedBytes, 100 + 5 + 7);
  assert.deepEqual([...w.fs.files.keys()].sort(), ['/var/log/pods/test-ns_a_a/app/1.log', '/var/log/pods/test-ns_a_a/app/1.log.20260101-000020']);
});

test('a removed pod loses every dead container, its sandboxes and its log directory', async () => {
  const w = await gcWorld([c('gone', 'app', 0, 10, E), c('kept', 'app', 0, 10, E)], [{ pod: 'gone', attempt: 0, state: 'NOTREADY', createdAt: 9 }]);
  w.fs.dirs.push('test-ns_gone_gone', 'test-ns_kept_kept');
  const first = await w.gc.garbageCollect();
  assert.deepEqual(first.removed, [], 'nothing goes while the pod may still be in use');
  w.podState.removed.add('gone');
  const r = await w.gc.garbageCollect();
  assert.deepEqual(w.remainingContainers(), [1]);
  assert.deepEqual(
    [...w.cri.sandboxes.values()].map((x) => x.config.metadata?.uid),
    ['kept'],
  );
  assert.ok(r.removed.includes(`test-ns/gone sandbox (${[...w.cri.callsOf<{ podSandboxId: string }>('removePodSandbox')][0]?.podSandboxId.slice(0, 12)})`));
  assert.deepEqual(w.fs.removedDirs, ['/var/log/pods/test-ns_gone_gone']);
});

test('a log path the runtime reports outside the pod logs directory is left alone (normalised before the check)', async () => {
  const w = await gcWorld([c('a', 'app', 0, 10, E), c('a', 'app', 1, 11, E)], [], { podLogsDir: '/var/log/pods' });
  const old = w.cri.containers.get(w.containerList[0] ?? '');
  if (old) old.logPath = '/var/log/pods/../../etc/passwd';
  w.fs.files.set('/etc/passwd', 7);
  const r = await w.gc.garbageCollect();
  assert.equal(r.removed.length, 1);
  assert.equal(r.freedBytes, 0);
  assert.ok(w.fs.files.has('/etc/passwd'));
});

test('a failed removal is reported in the result and the run goes on', async () => {
  const w = await gcWorld([c('a', 'app', 0, 5, E), c('a', 'app', 1, 11, E), c('b', 'web', 0, 10, E), c('b', 'web', 1, 11, E)]);
  w.cri.failNext('removeContainer', new CriError('UNKNOWN', 'device busy'));
  const r = await w.gc.garbageCollect();
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0] ?? '', /^test-ns\/a\/app \(.*device busy/);
  assert.deepEqual(w.remainingContainers(), [0, 1, 3]);
  assert.equal(r.removed.length, 1);
});

test('a listing failure is an error in the result, never a throw', async () => {
  const w = await gcWorld([c('a', 'app', 0, 10, E)]);
  w.cri.failAlways('listContainers', new CriError('UNAVAILABLE', 'runtime down'));
  const r = await w.gc.garbageCollect();
  assert.deepEqual(r.removed, []);
  assert.equal(r.errors.length, 2);
  assert.match(r.errors[0] ?? '', /^containers: .*runtime down/);
});

test('a request while a run of the same kind is in flight joins it; the eviction kind runs after it', async () => {
  const w = await gcWorld([c('a', 'app', 0, 10, E), c('a', 'app', 1, 11, E)]);
  const release = w.cri.holdNext('listContainers');
  const periodic = w.gc.garbageCollect('periodic');
  const manual = w.gc.garbageCollect('manual');
  const evict = w.gc.deleteAllUnusedContainers('eviction');
  release();
  const [p, m, e] = await Promise.all([periodic, manual, evict]);
  assert.equal(p, m);
  assert.equal(p.trigger, 'periodic');
  assert.equal(e.trigger, 'eviction');
  assert.equal(p.removed.length, 1);
  assert.equal(e.removed.length, 0, 'the eviction run saw the periodic run’s result');
  assert.equal(w.cri.callsOf('listContainers').length, 4, 'two runs, each listing twice');
});

test('PostStopContainer runs for each container the GC removes, before its RemoveContainer (kuberuntime removeContainer)', async () => {
  const seen: Array<{ id: string; stillThere: boolean }> = [];
  let cri: { containers: Map<string, unknown> } | undefined;
  const w = await gcWorld([c('a', 'app', 0, 10, E), c('a', 'app', 1, 11, E), c('a', 'app', 2, 12, E)], [], {
    postStopContainer: (id) => void seen.push({ id, stillThere: cri?.containers.has(id) ?? false }),
  });
  cri = w.cri;
  await w.gc.garbageCollect();
  assert.deepEqual(seen, [w.containerList[0], w.containerList[1]].map((id) => ({ id, stillThere: true })));
});
