/**
 * Issue #12: a slow container start must never run a container twice. The kubelet over a recording fake CRI
 * (FakeRuntime) whose StartContainer is held for as long as the test likes, on an injected clock: relists,
 * sync ticks, PLEG events and extra resyncs arrive during the start and right after it, and the runtime event
 * saying the container started may reach the kubelet late. Exactly one container of the name must exist.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { createCriEventSource } from '../cri/cri-events.ts';
import type { RuntimeContainerEvent, RuntimeEventSource } from '../cri/runtime-events.ts';
import type { ContainerConfig } from '../cri/types.ts';
import { createKubelet } from './kubelet.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';

const HOST = 'nodelet.local/host:latest';

/** The CRI event stream, with a gate: while held, events wait (as a runtime's event stream may lag its replies). */
function laggingEvents(cri: FakeRuntime) {
  const inner = createCriEventSource(cri);
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  const source: RuntimeEventSource = {
    name: 'cri',
    async *subscribe(signal: AbortSignal): AsyncGenerator<RuntimeContainerEvent> {
      for await (const ev of inner.subscribe(signal)) {
        while (gate) await gate;
        yield ev;
      }
    },
  };
  return {
    source,
    hold: () => void (gate = new Promise<void>((r) => (open = r))),
    release: () => {
      gate = undefined;
      open?.();
    },
  };
}

function setup(eventedPleg: boolean) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false });
  const events = laggingEvents(cri);
  const fs = new MemoryManifestFs('/manifests');
  // Many env vars, as in the issue (the fake's slowness is the held StartContainer, not the size).
  const env = Array.from({ length: 10_000 }, (_, i) => ({ name: `VAR_${i}`, value: `value-${i}` }));
  const spec = { containers: [{ name: 'app', image: HOST, command: ['sleep', '3600'], env }] };
  fs.put('slow.json', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'slow', namespace: 'default' }, spec }));
  const kubelet = createKubelet(
    { cri, clock, logger: nullLogger, manifestFs: fs, detectEventSource: async () => ({ ok: true, source: events.source, message: 'test' }) },
    {
      nodeName: 'node1', podManifestPath: '/manifests', fileCheckFrequencyMs: 2_000, httpCheckFrequencyMs: 20_000,
      podLogsDir: '/var/log/pods', rootDir: '/var/lib/nodelet', maxPods: 110, plegRelistPeriodMs: 1_000,
      plegRelistThresholdMs: 180_000, crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 },
      runtimeEndpoint: 'fake:///runtime', kubeletVersion: 'v1.34.0-nodelet', eventedPleg,
    },
  );
  const creates = () => cri.callsOf<{ config: ContainerConfig }>('createContainer').filter((r) => r.config.metadata?.name === 'app');
  const records = () => [...cri.containers.values()].filter((c) => c.config.metadata?.name === 'app');
  const steps = async (n: number, ms = 1_000) => {
    for (let i = 0; i < n; i++) await clock.step(ms);
  };
  return { clock, cri, events, kubelet, creates, records, steps };
}

for (const evented of [false, true]) {
  const mode = evented ? 'evented PLEG, the started event late' : 'relisting PLEG';
  test(`${mode}: syncs, PLEG events and resyncs during and after a slow start create one container`, async () => {
    const { clock, cri, events, kubelet, creates, records, steps } = setup(evented);
    const releaseStart = cri.holdNext('startContainer');
    await kubelet.start();
    for (let i = 0; i < 20 && cri.callsOf('startContainer').length === 0; i++) await clock.step(1_000);
    assert.equal(cri.callsOf('startContainer').length, 1, 'the start is in flight');
    const pod = kubelet.podManager.getPods()[0]!;
    // While the start hangs: relists and event-path reads see the container CREATED; resyncs and PLEG events queue up.
    for (let i = 0; i < 5; i++) {
      kubelet.workers.updatePod({ updateType: 'sync', pod });
      await steps(1);
    }
    assert.equal(creates().length, 1, 'nothing else is created while the start is in flight');
    // The start returns; the runtime's "started" event is slow to arrive. Time passes: cache refreshes, ticks, resyncs.
    if (evented) events.hold();
    releaseStart();
    await clock.step(0);
    for (let i = 0; i < 4; i++) {
      kubelet.workers.updatePod({ updateType: 'sync', pod });
      await steps(1, 500);
    }
    events.release();
    await steps(70);
    assert.equal(creates().length, 1, `one CreateContainer for app: ${JSON.stringify(creates().map((r) => r.config.metadata))}`);
    assert.deepEqual(records().map((c) => [c.config.metadata?.attempt ?? 0, c.state]), [[0, 'CONTAINER_RUNNING']]);
    const st = kubelet.getPod('default', 'slow-node1')?.status?.containerStatuses?.[0];
    assert.equal(st?.restartCount, 0);
    assert.ok(st?.state?.running);
    await kubelet.stop();
  });
}
