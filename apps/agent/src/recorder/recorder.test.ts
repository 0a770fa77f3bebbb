// The flight recorder between the bus and the store: which lifecycle decisions become which rows (the kubelet's
// reason strings and messages: kuberuntime_manager.go's "back-off %s restarting failed container=%s pod=%s", the
// Killing / Pulling / Evicted events, the admission reason OutOfmemory), probe runs as spans, the bounded queue
// (full: the oldest dropped and counted, never blocking), and follow (replay from a time, then live).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryEventBus, type NodeletEventInput } from '@nodelet/core/events';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { FlightRecorder } from './recorder.ts';
import { loadSqlite, type OpenDatabase } from './store.ts';
import type { RecorderEntry } from './types.ts';

const pod = { namespace: 'default', name: 'crasher', uid: 'uid-1' };
const podObj = { kind: 'Pod', namespace: 'default', name: 'crasher', uid: 'uid-1' };

describe('FlightRecorder', () => {
  let dir: string;
  let open: OpenDatabase;
  let n = 0;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'h6-recorder-'));
    open = await loadSqlite();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function setup(queueCapacity = 10_000) {
    const clock = new FakeClock(Date.UTC(2026, 10, 26, 6, 0, 0));
    const bus = new InMemoryEventBus({ clock, logger: new RecordingLogger().logger });
    const rec = new FlightRecorder({ clock, logger: new RecordingLogger().logger, open }, { path: join(dir, `r${n++}.db`), maxAgeMs: 3_600_000, maxBytes: 64 << 20, flushMs: 0, queueCapacity });
    rec.attach(bus);
    const publish = (e: NodeletEventInput) => bus.publish(e);
    return { clock, bus, rec, publish };
  }

  it('keeps admission, sync steps, back-off with its delay, kills, pulls, evictions, OOM kills and GC removals', () => {
    const { rec, publish, clock } = setup();
    publish({ type: 'decision', pod, decision: 'refuse', reason: 'OutOfmemory', message: 'Node didn\'t have enough resource: memory, requested: 10000000000, used: 0, capacity: 8000000000' });
    publish({ type: 'decision', pod, decision: 'admit' });
    publish({ type: 'decision', pod, decision: 'sync', steps: [{ action: 'CreatePodSandbox', target: 'crasher' }, { action: 'StartContainer', target: 'app' }] });
    publish({ type: 'k8sEvent', eventType: 'Normal', reason: 'Pulling', message: 'Pulling image "busybox:1.36"', involvedObject: { ...podObj, fieldPath: 'spec.containers{app}' }, count: 1, firstTimestamp: '', lastTimestamp: '' });
    publish({ type: 'decision', pod, decision: 'sync', steps: [{ action: 'StartContainer', target: 'app', error: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=app pod=crasher_default(uid-1)' }] });
    publish({ type: 'k8sEvent', eventType: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container app in pod crasher_default(uid-1)', involvedObject: { ...podObj, fieldPath: 'spec.containers{app}' }, count: 1, firstTimestamp: '', lastTimestamp: '' });
    publish({ type: 'k8sEvent', eventType: 'Normal', reason: 'Killing', message: 'Container app failed liveness probe, will be restarted', involvedObject: { ...podObj, fieldPath: 'spec.containers{app}' }, count: 1, firstTimestamp: '', lastTimestamp: '' });
    publish({ type: 'k8sEvent', eventType: 'Warning', reason: 'Evicted', message: 'The node was low on resource: memory. ', involvedObject: podObj, count: 1, firstTimestamp: '', lastTimestamp: '' });
    const oomStatus = { containerStatuses: [{ name: 'app', restartCount: 2, ready: false, image: '', imageID: '', lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', containerID: 'containerd://abc' } } }] };
    publish({ type: 'podStatus', pod, phase: 'Running', ready: false, containers: [], status: oomStatus as never });
    publish({ type: 'podStatus', pod, phase: 'Running', ready: false, containers: [], status: oomStatus as never });
    publish({ type: 'gc', kind: 'containers', trigger: 'periodic', removed: ['c1', 'c2'], freedBytes: 0, errors: [] });
    publish({ type: 'gc', kind: 'images', trigger: 'periodic', removed: [], freedBytes: 0, errors: [] });
    clock.step(1000);
    rec.flush();
    const rows = rec.query({}).entries;
    assert.deepEqual(rows.map((r) => [r.kind, r.reason, r.container ?? '']), [
      ['admission', 'OutOfmemory', ''],
      ['admission', 'Admitted', ''],
      ['sync', 'CreatePodSandbox', ''],
      ['sync', 'StartContainer', 'app'],
      ['pull', 'Pulling', 'app'],
      ['backoff', 'CrashLoopBackOff', 'app'],
      ['kill', 'Killing', 'app'],
      ['eviction', 'Evicted', ''],
      ['oom', 'OOMKilled', 'app'],
      ['gc', 'ContainerGC', ''],
    ]);
    const backoff = rows.find((r) => r.kind === 'backoff');
    assert.equal(backoff?.details?.delayMs, 40_000);
    assert.equal(backoff?.podUID, 'uid-1');
    assert.deepEqual(rows.find((r) => r.kind === 'gc')?.details?.removed, ['c1', 'c2']);
    assert.equal(rec.query({ podUID: 'uid-1', kinds: ['kill', 'backoff'] }).entries.length, 2);
    rec.close();
  });

  it('folds probe runs into spans: 30 successes then a failure are two rows', () => {
    const { rec, publish, clock } = setup();
    for (let i = 0; i < 30; i++) {
      publish({ type: 'probe', pod, container: 'app', probeType: 'readiness', result: 'success', latencyMs: 1 });
      clock.step(1000);
      if (i === 10) rec.flush(); // the open span is written, then grows in place
    }
    publish({ type: 'probe', pod, container: 'app', probeType: 'readiness', result: 'failure', output: 'HTTP probe failed with statuscode: 503', latencyMs: 1 });
    rec.flush();
    const rows = rec.query({ kinds: ['probe'] }).entries;
    assert.deepEqual(rows.map((r) => [r.reason, r.count]), [['success', 30], ['failure', 1]]);
    assert.equal(Date.parse(rows[0]?.last ?? '') - Date.parse(rows[0]?.time ?? ''), 29_000);
    rec.close();
  });

  it('folds the back-off a waiting container reports on every sync into one row; its next start opens the next', () => {
    const { rec, publish, clock } = setup();
    const backOff = (delay: string) => publish({ type: 'decision', pod, decision: 'sync', steps: [{ action: 'StartContainer', target: 'app', error: 'CrashLoopBackOff', message: `back-off ${delay} restarting failed container=app pod=crasher_default(uid-1)` }] });
    backOff('10s');
    clock.step(2000);
    backOff('10s');
    clock.step(2000);
    backOff('10s');
    publish({ type: 'pleg', pod, pleg: 'ContainerStarted', containerId: 'c2', containerName: 'app' });
    backOff('20s');
    backOff('20s');
    publish({ type: 'pleg', pod, pleg: 'ContainerStarted', containerId: 'c3', containerName: 'app' });
    backOff('20s');
    rec.flush();
    const rows = rec.query({ kinds: ['backoff'] }).entries;
    assert.deepEqual(rows.map((r) => [r.details?.delayMs, r.count]), [[10_000, 3], [20_000, 2], [20_000, 1]]);
    assert.equal(Date.parse(rows[0]?.last ?? '') - Date.parse(rows[0]?.time ?? ''), 4000);
    rec.close();
  });

  it('a full queue drops the oldest rows and counts them; recording never waits for the store', () => {
    const { rec, publish } = setup(5);
    for (let i = 0; i < 8; i++) publish({ type: 'decision', pod, decision: 'refuse', reason: `R${i}` });
    assert.deepEqual({ queued: rec.stats().queued, dropped: rec.stats().dropped }, { queued: 5, dropped: 3 });
    rec.flush();
    assert.deepEqual(rec.query({}).entries.map((r) => r.reason), ['R3', 'R4', 'R5', 'R6', 'R7']);
    rec.close();
  });

  it('follow: replays the rows since `from` of one pod, then delivers new and grown rows live', () => {
    const { rec, publish, clock } = setup();
    publish({ type: 'decision', pod: { ...pod, uid: 'other' }, decision: 'admit' });
    publish({ type: 'decision', pod, decision: 'admit' });
    rec.flush();
    const got: RecorderEntry[] = [];
    const stop = rec.follow({ podUID: 'uid-1' }, (e) => got.push(e));
    assert.deepEqual(got.map((e) => [e.kind, e.reason]), [['admission', 'Admitted']]);
    clock.step(1000);
    publish({ type: 'probe', pod, container: 'app', probeType: 'liveness', result: 'success', latencyMs: 1 });
    publish({ type: 'decision', pod: { ...pod, uid: 'other' }, decision: 'admit' });
    rec.flush();
    clock.step(1000);
    publish({ type: 'probe', pod, container: 'app', probeType: 'liveness', result: 'success', latencyMs: 1 });
    rec.flush();
    assert.deepEqual(got.slice(1).map((e) => [e.kind, e.count]), [['probe', 1], ['probe', 2]]);
    assert.equal(got[1]?.id, got[2]?.id, 'a grown span keeps its id');
    stop();
    publish({ type: 'decision', pod, decision: 'admit' });
    rec.flush();
    assert.equal(got.length, 3);
    rec.close();
  });

  it('trims rows older than maxAge on its trim period (injected clock)', () => {
    const { rec, publish, clock } = setup();
    publish({ type: 'decision', pod, decision: 'admit' });
    rec.flush();
    clock.step(3_600_000 + 31_000);
    publish({ type: 'decision', pod, decision: 'refuse', reason: 'OutOfpods' });
    rec.flush();
    assert.deepEqual(rec.query({}).entries.map((r) => r.reason), ['OutOfpods']);
    rec.close();
  });
});
