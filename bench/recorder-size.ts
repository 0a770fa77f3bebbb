// bench/recorder-size: the flight recorder's size after one hour (#16 item 4: "the recorder's size after 1 hour of a
// crash-looping pod"), simulated: an injected clock and a generator feed the real recorder (better-sqlite3, the
// agent's file layout, WAL) the bus events the kubelet publishes, in time order, one flush per simulated second
// (the recorder writes once a second). Scenarios:
// - crash loop: one pod whose container exits 1 RUN_S (30) seconds after each start; the kubelet's back-off (10 s
//   doubling to 300 s); its pod worker re-syncing every 10 s while backed off (a CrashLoopBackOff step each time);
//   readiness (1 s; failing on its first run of each instance, then passing) and liveness (5 s) exec probes while
//   it runs — the probes of the session-6 measurement of the compiled agent;
// - busy node: 110 pods for the hour — 100 steady pods with readiness and liveness probes every 10 s (successes),
//   10 crash-looping pods as above (staggered), a pod deleted and re-created every minute, a container GC run
//   removing a dead container every minute.
// Prints rows, the bytes the rows take, the file and WAL sizes, probe runs vs probe span rows, back-off rows, and
// how long the simulation took. `node --import tsx bench/recorder-size.ts` (HOURS=1, RUN_S=30).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeletEventInput, NodeletEvent } from '@nodelet/core/events';
import { FakeClock } from '@nodelet/core/testing';
import { nullLogger } from '@nodelet/core/util';
import { FlightRecorder, loadSqlite } from '@nodelet/agent/testing';
import { table } from './stats.ts';

const HOURS = Number(process.env.HOURS ?? 1);
const RUN_MS = Number(process.env.RUN_S ?? 30) * 1000;
const IMAGE = 'nodelet.local/host:latest';

type Emit = (e: NodeletEventInput) => void;
interface Pod { namespace: string; name: string; uid: string }

/** A crash-looping container's timeline from `startMs`: what the kubelet publishes at each second. */
function crashLoop(pod: Pod, startMs: number) {
  let backOffMs = 10_000;
  let delayMs = 0;
  let runningSince: number | undefined;
  let backOffUntil = startMs;
  let restarts = 0;
  let lastSync = 0;
  return (now: number, emit: Emit, runs: { n: number }) => {
    if (now < startMs) return;
    const time = new Date(now).toISOString();
    if (runningSince === undefined && now >= backOffUntil) {
      runningSince = now;
      emit({ type: 'decision', pod, decision: 'sync', steps: [{ action: 'StartContainer', target: 'main' }], time });
      emit({ type: 'k8sEvent', eventType: 'Normal', reason: 'Pulled', message: `Container image "${IMAGE}" already present on machine`, involvedObject: { kind: 'Pod', ...pod, fieldPath: 'spec.containers{main}' }, count: restarts + 1, firstTimestamp: time, lastTimestamp: time, time });
      emit({ type: 'k8sEvent', eventType: 'Normal', reason: 'Started', message: 'Started container main', involvedObject: { kind: 'Pod', ...pod, fieldPath: 'spec.containers{main}' }, count: restarts + 1, firstTimestamp: time, lastTimestamp: time, time });
      emit({ type: 'pleg', pod, pleg: 'ContainerStarted', containerId: `c-${pod.uid}-${restarts}`, containerName: 'main', time });
      return;
    }
    if (runningSince !== undefined) {
      runs.n += 1;
      const first = now - runningSince <= 1_000;
      emit({ type: 'probe', pod, container: 'main', probeType: 'readiness', result: first ? 'failure' : 'success', ...(first ? { output: 'exit 1' } : {}), latencyMs: 3, time });
      if ((now - runningSince) % 5_000 === 0) {
        runs.n += 1;
        emit({ type: 'probe', pod, container: 'main', probeType: 'liveness', result: 'success', latencyMs: 3, time });
      }
      if (now - runningSince >= RUN_MS) {
        emit({ type: 'pleg', pod, pleg: 'ContainerDied', containerId: `c-${pod.uid}-${restarts}`, containerName: 'main', time });
        restarts += 1;
        runningSince = undefined;
        backOffUntil = now + backOffMs;
        delayMs = backOffMs;
        lastSync = 0;
        backOffMs = Math.min(backOffMs * 2, 300_000);
      }
      return;
    }
    if (now - lastSync >= 10_000) {
      lastSync = now;
      // The kubelet's message names the period's delay (the same on every sync of the period).
      const message = `back-off ${delayMs / 1000}s restarting failed container=main pod=${pod.name}_${pod.namespace}(${pod.uid})`;
      emit({ type: 'decision', pod, decision: 'sync', steps: [{ action: 'StartContainer', target: 'main', error: 'CrashLoopBackOff', message }], time });
      emit({ type: 'k8sEvent', eventType: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container main in pod', involvedObject: { kind: 'Pod', ...pod, fieldPath: 'spec.containers{main}' }, count: restarts, firstTimestamp: time, lastTimestamp: time, time });
    }
  };
}

/** A pod created now, run, deleted a minute later (admission, sync steps, pull, kill, PLEG, config). */
function churnPod(pod: Pod, now: number, emit: Emit, phase: 'create' | 'delete'): void {
  const time = new Date(now).toISOString();
  if (phase === 'create') {
    emit({ type: 'podConfig', pod, op: 'ADD', source: 'api', time });
    emit({ type: 'decision', pod, decision: 'admit', time });
    emit({ type: 'decision', pod, decision: 'sync', steps: [{ action: 'CreatePodSandbox', target: pod.name }, { action: 'StartContainer', target: 'main' }], time });
    emit({ type: 'k8sEvent', eventType: 'Normal', reason: 'Pulled', message: `Container image "${IMAGE}" already present on machine`, involvedObject: { kind: 'Pod', ...pod, fieldPath: 'spec.containers{main}' }, count: 1, firstTimestamp: time, lastTimestamp: time, time });
    emit({ type: 'pleg', pod, pleg: 'ContainerStarted', containerId: `c-${pod.uid}`, containerName: 'main', time });
    return;
  }
  emit({ type: 'podConfig', pod, op: 'DELETE', source: 'api', time });
  emit({ type: 'k8sEvent', eventType: 'Normal', reason: 'Killing', message: 'Stopping container main', involvedObject: { kind: 'Pod', ...pod, fieldPath: 'spec.containers{main}' }, count: 1, firstTimestamp: time, lastTimestamp: time, time });
  emit({ type: 'pleg', pod, pleg: 'ContainerDied', containerId: `c-${pod.uid}`, containerName: 'main', time });
  emit({ type: 'podConfig', pod, op: 'REMOVE', source: 'api', time });
}

async function run(name: string, scenario: (now: number, emit: Emit, runs: { n: number }) => void): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-bench-recorder-'));
  try {
    const clock = new FakeClock(Date.UTC(2026, 10, 26, 9));
    const path = join(dir, 'recorder.db');
    const rec = new FlightRecorder({ clock, logger: nullLogger, open: await loadSqlite() }, { path, maxAgeMs: 168 * 3_600_000, maxBytes: 64 * 1024 * 1024, flushMs: 0 });
    let seq = 0;
    const emit: Emit = (e) => rec.event({ ...e, seq: ++seq, time: e.time ?? new Date(clock.now()).toISOString() } as NodeletEvent);
    const runs = { n: 0 };
    const t0 = performance.now();
    const end = clock.now() + HOURS * 3_600_000;
    while (clock.now() < end) {
      scenario(clock.now(), emit, runs);
      rec.flush();
      await clock.step(1_000);
    }
    const wallS = (performance.now() - t0) / 1000;
    const s = rec.stats();
    const count = (kind: 'probe' | 'backoff') => {
      let n = 0;
      let cursor: string | undefined;
      do {
        const page = rec.query({ to: clock.now(), kinds: [kind], limit: 1000, ...(cursor ? { cursor } : {}) });
        n += page.entries.length;
        cursor = page.nextCursor;
      } while (cursor);
      return String(n);
    };
    const size = (f: string) => { try { return statSync(f).size; } catch { return 0; } };
    const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
    const row = [name, String(s.rows), kib(s.bytes), kib(size(path)), kib(size(`${path}-wal`)), String(runs.n), count('probe'), count('backoff'), String(s.dropped), `${wallS.toFixed(1)} s`];
    rec.close();
    return row;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pod = (name: string): Pod => ({ namespace: 'default', name, uid: `uid-${name}` });

const oneCrash = crashLoop(pod('crash'), Date.UTC(2026, 10, 26, 9));
const busy = (() => {
  const start = Date.UTC(2026, 10, 26, 9);
  const steady = Array.from({ length: 100 }, (_, i) => pod(`steady-${i}`));
  const crashers = Array.from({ length: 10 }, (_, i) => crashLoop(pod(`crash-${i}`), start + i * 7_000));
  let churned = 0;
  return (now: number, emit: Emit, runs: { n: number }) => {
    const s = (now - start) / 1000;
    const time = new Date(now).toISOString();
    for (const [i, p] of steady.entries()) {
      if ((s + i) % 10 !== 0) continue;
      runs.n += 2;
      emit({ type: 'probe', pod: p, container: 'main', probeType: 'readiness', result: 'success', latencyMs: 2, time });
      emit({ type: 'probe', pod: p, container: 'main', probeType: 'liveness', result: 'success', latencyMs: 2, time });
    }
    for (const c of crashers) c(now, emit, runs);
    if (s % 60 === 30) {
      if (churned > 0) churnPod(pod(`churn-${churned - 1}`), now, emit, 'delete');
      churnPod(pod(`churn-${churned++}`), now, emit, 'create');
      emit({ type: 'gc', kind: 'containers', trigger: 'periodic', removed: [`c-uid-crash-${churned % 10}-${churned}`], freedBytes: 24_576, errors: [], time });
    }
  };
})();

const load = loadavg()[0]!.toFixed(1);
const rows = [await run('1 crash-looping pod', oneCrash), await run('busy node: 110 pods', busy)];
console.log(`Flight recorder after ${HOURS} h (simulated; better-sqlite3, WAL, one write a simulated second); load 1m ${load}`);
console.log(table(['scenario', 'rows', 'rows take', 'file', 'WAL', 'probe runs', 'probe rows', 'back-off rows', 'dropped', 'sim time'], rows));
