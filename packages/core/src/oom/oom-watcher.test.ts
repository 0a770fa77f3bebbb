import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { MemoryEventsPoller } from './memory-events-poller.ts';
import { OomWatcher } from './oom-watcher.ts';
import type { KmsgSource, OomEvent } from './types.ts';

class FakeKmsg implements KmsgSource {
  onRecord: ((raw: string) => void) | undefined;
  starts = 0;
  stops = 0;
  start(cb: (raw: string) => void) {
    this.starts++;
    this.onRecord = cb;
  }
  stop() {
    this.stops++;
    this.onRecord = undefined;
  }
  emit(usec: number, msg: string) {
    this.onRecord?.(`6,${usec},${usec},-;${msg}\n`);
  }
}

function setup() {
  const source = new FakeKmsg();
  const clock = new FakeClock();
  const containerOom: OomEvent[] = [];
  const systemOom: string[] = [];
  const w = new OomWatcher({ source, clock, logger: nullLogger, bootTimeMs: 1_000_000, sink: { containerOom: (e) => containerOom.push(e), systemOom: (_e, m) => systemOom.push(m) } });
  return { source, clock, w, containerOom, systemOom };
}

test('container OOMs go to containerOom with pod and container, the rest to SystemOOM', () => {
  const { source, w, containerOom, systemOom } = setup();
  w.start();
  w.start();
  assert.equal(source.starts, 1);
  source.emit(5_000_000, 'oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=c1,mems_allowed=0,oom_memcg=/kubepods/burstable/podu1/c1,task_memcg=/kubepods/burstable/podu1/c1,task=dd,pid=10,uid=0');
  source.emit(5_000_100, 'Memory cgroup out of memory: Killed process 10 (dd) total-vm:1kB');
  source.emit(6_000_000, 'Out of memory: Killed process 20 (java) total-vm:1kB');
  assert.equal(containerOom.length, 1);
  assert.equal(containerOom[0]?.podUid, 'u1');
  assert.equal(containerOom[0]?.time, 1_000_000 + 5_000);
  assert.deepEqual(systemOom, ['System OOM encountered, victim process: java, pid: 20']);
  assert.equal(w.oomKilled('c1')?.pid, 10);
  assert.equal(w.oomKilled('c2'), undefined);
  w.stop();
  assert.equal(source.stops, 1);
});

test('memory.events kills: baseline, one event per new kill, deduplicated against kmsg', async () => {
  const f = makeFixture('v2');
  try {
    const { source, clock, w, containerOom } = setup();
    w.start();
    const cg = '/kubepods/burstable/podu1/c1';
    f.write(`/sys/fs/cgroup${cg}/memory.events`, 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n');
    const poller = new MemoryEventsPoller({ fs: f.fs, clock, unifiedMount: '/sys/fs/cgroup', cgroups: () => [cg, '/kubepods/absent'], emit: (e) => w.ingest(e) }, { intervalMs: 1000 });
    poller.start();
    await clock.step(1000);
    await poller.idle();
    assert.equal(containerOom.length, 0, 'first read is the baseline');
    f.write(`/sys/fs/cgroup${cg}/memory.events`, 'oom 3\noom_kill 3\n');
    await clock.step(1000);
    await poller.idle();
    assert.equal(containerOom.length, 2);
    assert.deepEqual({ ...containerOom[0], time: 0 }, { time: 0, pid: 0, processName: '', taskCgroup: cg, oomCgroup: cg, constraint: 'CONSTRAINT_MEMCG', source: 'memory.events', podUid: 'u1', containerId: 'c1' });
    // a kill the kernel log reported is not counted twice
    const w2 = setup();
    w2.w.start();
    w2.source.emit(1, `oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=${cg},task_memcg=${cg},task=dd,pid=3,uid=0`);
    w2.source.emit(2, 'Memory cgroup out of memory: Killed process 3 (dd)');
    w2.w.ingest({ time: 1_000_000, pid: 0, processName: '', taskCgroup: cg, oomCgroup: cg, constraint: 'CONSTRAINT_MEMCG', source: 'memory.events', podUid: 'u1' });
    assert.equal(w2.containerOom.length, 1);
    poller.stop();
    assert.equal(clock.pending(), 0);
  } finally {
    f.cleanup();
  }
});

test('inScope: kills in another agent\'s pods (other --cgroup-root) are not this agent\'s', async () => {
  const { inScope } = await import('./oom-watcher.ts');
  const ev = (taskCgroup: string, podUid?: string): OomEvent => ({ time: 0, pid: 1, processName: 'dd', taskCgroup, oomCgroup: taskCgroup, constraint: 'CONSTRAINT_MEMCG', source: 'kmsg', ...(podUid ? { podUid } : {}) });
  const known = (uid: string) => uid === 'mine';
  const cases: { name: string; e: OomEvent; scope?: Parameters<typeof inScope>[1]; want: boolean }[] = [
    { name: 'no scope: everything', e: ev('/b/kubepods/podx/c', 'x'), want: true },
    { name: 'under our root', e: ev('/a/kubepods/burstable/podx/c', 'x'), scope: { podRoots: ['/a/kubepods'] }, want: true },
    { name: 'under another root', e: ev('/b/kubepods/burstable/podx/c', 'x'), scope: { podRoots: ['/a/kubepods'] }, want: false },
    { name: 'root prefix is not a path prefix', e: ev('/a2/kubepods/podx/c', 'x'), scope: { podRoots: ['/a'] }, want: false },
    { name: 'another root but a pod we know', e: ev('/b/kubepods/podmine/c', 'mine'), scope: { podRoots: ['/a/kubepods'], knownPod: known }, want: true },
    { name: 'another root, unknown pod', e: ev('/b/kubepods/podx/c', 'x'), scope: { podRoots: ['/a/kubepods'], knownPod: known }, want: false },
    { name: 'default root /kubepods vs /b/kubepods', e: ev('/b/kubepods/podx/c', 'x'), scope: { podRoots: ['/kubepods'] }, want: false },
    { name: 'not a pod (system OOM) always', e: ev('/'), scope: { podRoots: ['/a/kubepods'] }, want: true },
    { name: 'root "/" owns all', e: ev('/b/kubepods/podx/c', 'x'), scope: { podRoots: ['/'] }, want: true },
  ];
  for (const c of cases) assert.equal(inScope(c.e, c.scope), c.want, c.name);
});

test('a watcher scoped to its cgroup root drops kmsg OOMs of another agent\'s pods', () => {
  const source = new FakeKmsg();
  const containerOom: OomEvent[] = [];
  const w = new OomWatcher({ source, clock: new FakeClock(), logger: nullLogger, sink: { containerOom: (e) => containerOom.push(e) } }, { scope: { podRoots: ['/agent-a/kubepods'] } });
  w.start();
  const kill = (root: string, pod: string, pid: number) => {
    source.emit(pid * 1000, `oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=c,mems_allowed=0,oom_memcg=${root}/kubepods/burstable/pod${pod}/c${pod},task_memcg=${root}/kubepods/burstable/pod${pod}/c${pod},task=dd,pid=${pid},uid=0`);
    source.emit(pid * 1000 + 1, `Memory cgroup out of memory: Killed process ${pid} (dd) total-vm:1kB`);
  };
  kill('/agent-b', 'theirs', 11);
  kill('/agent-a', 'ours', 12);
  assert.deepEqual(containerOom.map((e) => e.podUid), ['ours']);
  assert.deepEqual(w.recent().map((e) => e.pid), [12]);
  assert.equal(w.oomKilled('ctheirs'), undefined);
  w.stop();
});
