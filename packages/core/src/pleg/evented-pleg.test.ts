import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RuntimePod } from '../container/types.ts';
import type { RuntimeContainerEvent } from '../cri/runtime-events.ts';
import { CriError } from '../cri/types.ts';
import { eventPod, pod, setup } from './testing/evented-fixture.ts';

test('connected: an event re-reads its pod at once, the timer relist slows to 300 s with a 10 min threshold', async () => {
  const { clock, rt, src, pleg, generic, ev, seen, metrics } = setup();
  rt.pods = [pod('u1', [['c1', 'running']])];
  pleg.start();
  await clock.step(0);
  assert.deepEqual(seen(), ['u1/ContainerStarted/c1', 'u1/ContainerStarted/sb-u1']);
  await clock.step(500);
  assert.equal(pleg.mode, 'evented');
  assert.equal(generic.relistPeriodMs, 300_000);
  assert.equal(metrics.counts.connections, 1);
  const listsBefore = rt.calls.filter((c) => c === 'getPods').length;
  rt.pods = [pod('u1', [['c1', 'exited']])];
  src.push(ev('exited', 'c1'));
  await clock.step(0);
  assert.deepEqual(seen(), ['u1/ContainerDied/c1']);
  assert.equal(rt.calls.at(-1), 'getPodStatus u1', 'the event re-read its pod, nothing else');
  // no relists in the next 299 s: the event touched its pod only
  await clock.step(299_000);
  assert.equal(rt.calls.filter((c) => c === 'getPods').length, listsBefore);
  // healthy for 10 min without relisting (runtime fails), unhealthy after
  rt.failGetPods = new Error('down');
  await clock.step(250_000);
  assert.equal(pleg.healthy().ok, true);
  await clock.step(60_000);
  assert.equal(pleg.healthy().ok, false);
  pleg.stop();
  assert.equal(clock.pending(), 0);
});

test('repeated and dropped events neither duplicate nor lose a transition', async () => {
  const { clock, rt, src, pleg, ev, seen } = setup();
  rt.pods = [pod('u1', [['c1', 'running'], ['c2', 'running']])];
  pleg.start();
  await clock.step(500);
  seen();
  const cases: Array<{ name: string; pods: RuntimePod[]; events: RuntimeContainerEvent[]; want: string[] }> = [
    { name: 'repeat', pods: [pod('u1', [['c1', 'exited'], ['c2', 'running']])], events: [ev('exited', 'c1'), ev('exited', 'c1'), ev('exited', 'c1')], want: ['u1/ContainerDied/c1'] },
    { name: 'dropped (no event for c2)', pods: [pod('u1', [['c1', 'exited'], ['c2', 'exited']])], events: [], want: [] },
    { name: 'next event reconciles the dropped one', pods: [pod('u1', [['c1', 'exited'], ['c2', 'exited'], ['c3', 'running']])], events: [ev('started', 'c3')], want: ['u1/ContainerDied/c2', 'u1/ContainerStarted/c3'] },
    { name: 'unrelated repeat of an old event', pods: [pod('u1', [['c1', 'exited'], ['c2', 'exited'], ['c3', 'running']])], events: [ev('started', 'c1')], want: [] },
  ];
  for (const c of cases) {
    rt.pods = c.pods;
    for (const e of c.events) src.push(e);
    await clock.step(0);
    assert.deepEqual(seen(), c.want, c.name);
  }
  pleg.stop();
});

test('a broken stream drops back to the 1 s relist, reconnects with back-off, then slows again', async () => {
  const { clock, rt, src, pleg, generic, metrics, seen } = setup();
  rt.pods = [pod('u1', [['c1', 'running']])];
  pleg.start();
  await clock.step(500);
  assert.equal(generic.relistPeriodMs, 300_000);
  seen();
  rt.pods = [pod('u1', [['c1', 'exited']])]; // the change whose event is lost with the stream
  src.push(new CriError('UNAVAILABLE', 'gone'));
  await clock.step(0);
  assert.equal(pleg.mode, 'connecting');
  assert.equal(generic.relistPeriodMs, 1_000);
  assert.deepEqual(seen(), ['u1/ContainerDied/c1'], 'relisted at once');
  assert.equal(metrics.counts.connErrors, 1);
  // it breaks again before being established: the next wait doubles (1 s, then 2 s)
  src.push(new CriError('UNAVAILABLE', 'still gone'));
  await clock.step(1_000);
  assert.equal(src.subscriptions, 2);
  await clock.step(1_999);
  assert.equal(src.subscriptions, 2);
  await clock.step(1);
  assert.equal(src.subscriptions, 3);
  await clock.step(500);
  assert.equal(pleg.mode, 'evented');
  assert.equal(generic.relistPeriodMs, 300_000);
  assert.equal(metrics.counts.connections, 2);
  pleg.stop();
  assert.equal(clock.pending(), 0);
});

test('detection: unsupported stays on relist; unreachable retries with back-off', async () => {
  const un = setup(() => ({ ok: false, reason: 'EventsUnsupported', message: 'none' }));
  un.pleg.start();
  await un.clock.step(3_000);
  assert.equal(un.pleg.mode, 'relist-only');
  assert.equal(un.generic.relistPeriodMs, 1_000);
  assert.ok(un.rt.calls.filter((c) => c === 'getPods').length >= 3);
  un.pleg.stop();

  let tries = 0;
  const down = setup((src) => (++tries < 3 ? { ok: false, reason: 'RuntimeUnavailable', message: 'no socket' } : { ok: true, source: src, message: 'ok' }));
  down.pleg.start();
  await down.clock.step(0);
  assert.equal(tries, 1);
  await down.clock.step(1_000);
  assert.equal(tries, 2);
  await down.clock.step(2_000);
  assert.equal(tries, 3);
  await down.clock.step(500);
  assert.equal(down.pleg.mode, 'evented');
  assert.equal(down.metrics.counts.connErrors, 2);
  down.pleg.stop();
  assert.equal(down.clock.pending(), 0);
});

test('while connected the cache timestamp is refreshed every second, so waiting workers proceed', async () => {
  const { clock, rt, cache, pleg } = setup();
  rt.pods = [pod('u1', [['c1', 'running']])];
  pleg.start();
  await clock.step(500);
  const after = clock.now();
  let got = false;
  void cache.getNewerThan('u1', after).then(() => (got = true));
  await clock.step(400);
  assert.equal(got, false);
  await clock.step(700);
  assert.equal(got, true);
  pleg.stop();
});

test('events re-read their pod one read at a time; events during a read coalesce into one more', async () => {
  const { clock, rt, src, pleg, ev } = setup();
  rt.pods = [pod('u1', [['c1', 'running']])];
  pleg.start();
  await clock.step(500);
  const reads = () => rt.calls.filter((c) => c === 'getPodStatus u1').length;
  const lists = () => rt.calls.filter((c) => c === 'getPods').length;
  const [readsBefore, listsBefore] = [reads(), lists()];
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const real = rt.getPodStatus.bind(rt);
  rt.getPodStatus = async (uid: string, name: string, ns: string) => {
    await gate;
    return real(uid, name, ns);
  };
  for (let i = 0; i < 10; i++) src.push(ev('started', 'c1'));
  await clock.step(0);
  release();
  await clock.step(0);
  assert.equal(reads() - readsBefore, 2, '10 events during one read → that read + one more');
  assert.equal(lists() - listsBefore, 0, 'no relist for a known pod');
  pleg.stop();
});

test('a silent stream does not count as connected while relists cannot reach the runtime', async () => {
  const { clock, rt, pleg, generic, metrics } = setup();
  rt.failGetPods = new Error('runtime restarting');
  pleg.start();
  await clock.step(2_000);
  assert.equal(pleg.mode, 'connecting');
  assert.equal(generic.relistPeriodMs, 1_000);
  assert.equal(metrics.counts.connections, undefined);
  rt.failGetPods = undefined;
  await clock.step(1_000);
  assert.equal(pleg.mode, 'evented');
  assert.equal(generic.relistPeriodMs, 300_000);
  pleg.stop();
  assert.equal(clock.pending(), 0);
});

test('while connected, a pod whose inspection failed is re-inspected within a second', async () => {
  const { clock, rt, cache, pleg, src, ev } = setup();
  rt.pods = [pod('u1', [['c1', 'running']])];
  pleg.start();
  await clock.step(500);
  rt.pods = [pod('u1', [['c1', 'exited']])];
  rt.failStatus.set('u1', new Error('deadline exceeded'));
  src.push(ev('exited', 'c1'));
  await clock.step(0);
  assert.ok(cache.get('u1').error);
  rt.failStatus.clear();
  await clock.step(1_000);
  assert.equal(cache.get('u1').error, undefined);
  pleg.stop();
});

test('an event is handled after the turn that brought it: a reply arriving with it goes first', async () => {
  const { clock, rt, src, pleg, ev, seen } = setup();
  rt.pods = [pod('u1', [['c1', 'running']])];
  pleg.start();
  await clock.step(500);
  seen();
  const reads = () => rt.calls.filter((c) => c === 'getPodStatus u1').length;
  const before = reads();
  rt.pods = [pod('u1', [['c1', 'running'], ['c2', 'running']])];
  src.push(ev('started', 'c2'));
  for (let i = 0; i < 50; i++) await Promise.resolve(); // what a reply's continuation runs in: microtasks of this turn
  assert.equal(reads(), before, 'the event was handled inside the turn that brought it');
  await new Promise((r) => setImmediate(r));
  await clock.step(0);
  assert.equal(reads(), before + 1);
  assert.deepEqual(seen(), ['u1/ContainerStarted/c2']);
  pleg.stop();
});

test('while its worker syncs a pod, a created or started event without the whole pod is left to the worker\'s read; exits and other pods are read', async () => {
  let syncing = true;
  const { clock, rt, src, pleg, ev, seen } = setup(undefined, { syncingPod: (uid) => syncing && uid === 'u1' });
  rt.pods = [pod('u1', [['c1', 'running']]), pod('u2', [['d1', 'running']])];
  pleg.start();
  await clock.step(500);
  seen();
  const reads = (uid: string) => rt.calls.filter((c) => c === `getPodStatus ${uid}`).length;
  const turn = async () => {
    await new Promise((r) => setImmediate(r));
    await clock.step(0);
  };
  const before = reads('u1');
  rt.pods = [pod('u1', [['c1', 'running'], ['c2', 'running']]), pod('u2', [['d1', 'running'], ['d2', 'running']])];
  src.push(ev('created', 'c2', { sandboxId: 'sb-u1' }));
  src.push(ev('started', 'c2', { sandboxId: 'sb-u1' }));
  src.push(ev('started', 'd2', { sandboxId: 'sb-u2' }));
  await turn();
  assert.equal(reads('u1'), before, 'the syncing worker\'s own start: no read of its own');
  assert.deepEqual(seen(), ['u2/ContainerStarted/d2'], 'another pod\'s start is read');
  // The worker's read after its sync publishes what the events would have (its ContainerStarted brings the next sync).
  await pleg.updateCache('u1', 'pod-u1', 'default', clock.now());
  assert.equal(reads('u1'), before + 1);
  assert.deepEqual(seen(), ['u1/ContainerStarted/c2']);
  await pleg.updateCache('u1', 'pod-u1', 'default', clock.now());
  assert.deepEqual(seen(), [], 'a later read is the worker\'s plain one');
  rt.pods = [pod('u1', [['c1', 'exited'], ['c2', 'running']]), pod('u2', [['d1', 'running'], ['d2', 'running']])];
  src.push(ev('exited', 'c1', { sandboxId: 'sb-u1' }));
  await turn();
  assert.equal(reads('u1'), before + 3, 'an exit is never the sync\'s doing: read');
  syncing = false;
  rt.pods = [pod('u1', [['c1', 'exited'], ['c2', 'running'], ['c3', 'running']]), pod('u2', [['d1', 'running'], ['d2', 'running']])];
  src.push(ev('started', 'c3', { sandboxId: 'sb-u1' }));
  await turn();
  assert.equal(reads('u1'), before + 4, 'no sync running: read');
  pleg.stop();
});

test('a sandbox\'s IPs are known from its event as soon as the event is heard, before it is handled', async () => {
  const { clock, rt, src, pleg, ev } = setup();
  rt.pods = [pod('u1', [['c1', 'running']])];
  pleg.start();
  await clock.step(500);
  src.push(ev('started', 'sb-u1', { sandboxId: 'sb-u1', podUid: 'u1', pod: eventPod('u1', [['c1', 'running']]) }));
  for (let i = 0; i < 50; i++) await Promise.resolve(); // heard (the stream yielded it), not handled: the turn goes on
  assert.deepEqual(pleg.heardSandboxIps('sb-u1'), ['10.0.0.7']);
  assert.equal(pleg.heardSandboxIps('sb-other'), undefined);
  await new Promise((r) => setImmediate(r));
  assert.equal(pleg.heardSandboxIps('sb-u1'), undefined, 'handled: the cache shows it from now on');
  pleg.stop();
});

test('containerd: a creation CRI could not place (no sandbox found for it) relists nothing; an unknown start does', async () => {
  const { clock, rt, src, pleg, ev } = setup();
  rt.pods = [];
  pleg.start();
  await clock.step(500);
  const lists = () => rt.calls.filter((c) => c === 'getPods').length;
  const before = lists();
  src.push(ev('created', 'pause-of-new-sandbox', { source: 'containerd' }));
  await new Promise((r) => setImmediate(r));
  await clock.step(0);
  assert.equal(lists(), before, 'a relist could not show what CRI does not know yet');
  src.push(ev('started', 'pause-of-new-sandbox', { source: 'containerd' }));
  await new Promise((r) => setImmediate(r));
  await clock.step(0);
  assert.equal(lists(), before + 1);
  pleg.stop();
});
