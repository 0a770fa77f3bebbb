/**
 * Mock probe workers (probes.list) and probe events for the mock agent: web/nginx has a readiness probe that
 * fails for a few runs every so often and a tcp liveness probe; crasher/app has a failing liveness probe.
 */
import type { ProbeWorkerInfo, ProbeResult } from '@nodelet/agent/types';
import type { MockWorld } from './mock-world.ts';

export interface MockProbes {
  list(filter?: { namespace?: string; pod?: string }): ProbeWorkerInfo[];
  tick(): void;
}

const base = { initialDelaySeconds: 0, periodSeconds: 3, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3, consecutive: 0, onHold: false };

export function createMockProbes(world: MockWorld, now: () => Date = () => new Date()): MockProbes {
  const uid = (ns: string, name: string) => `uid-${ns}-${name}`;
  const workers: ProbeWorkerInfo[] = [
    { ...base, pod: { namespace: 'default', name: 'web', uid: uid('default', 'web') }, container: 'nginx', probeType: 'readiness', handler: 'httpGet', target: 'http://10.88.0.7:80/healthz', containerId: 'nginx-0' },
    { ...base, pod: { namespace: 'default', name: 'web', uid: uid('default', 'web') }, container: 'nginx', probeType: 'liveness', handler: 'tcpSocket', target: '10.88.0.7:80', containerId: 'nginx-0', periodSeconds: 10 },
    { ...base, pod: { namespace: 'default', name: 'web', uid: uid('default', 'web') }, container: 'sidecar', probeType: 'startup', handler: 'exec', target: 'test -f /tmp/started', containerId: 'sidecar-0', failureThreshold: 30 },
    { ...base, pod: { namespace: 'default', name: 'crasher', uid: uid('default', 'crasher') }, container: 'app', probeType: 'liveness', handler: 'httpGet', target: 'http://10.88.0.8:8080/live', containerId: 'app-0' },
  ];
  let ticks = 0;

  function run(w: ProbeWorkerInfo, result: ProbeResult, output: string): void {
    const latencyMs = result === 'success' ? 2 + (ticks % 7) : 1000;
    const previous = w.lastResult;
    w.consecutive = previous === result ? w.consecutive + 1 : 1;
    w.lastResult = result;
    const threshold = result === 'success' ? w.successThreshold : w.failureThreshold;
    if (w.consecutive >= threshold || w.effective === undefined) w.effective = w.consecutive >= threshold ? result : w.effective;
    w.lastRun = { time: now().toISOString(), result, output, latencyMs };
    world.publish({ type: 'probe', pod: w.pod, container: w.container, probeType: w.probeType, result, previous, output, latencyMs, effective: w.effective });
  }

  return {
    list: (f) => workers.filter((w) => (!f?.namespace || w.pod.namespace === f.namespace) && (!f?.pod || w.pod.name === f.pod)).map((w) => ({ ...w })),
    tick() {
      ticks += 1;
      const [ready, live, startup, crash] = workers as [ProbeWorkerInfo, ProbeWorkerInfo, ProbeWorkerInfo, ProbeWorkerInfo];
      const failing = ticks % 12 >= 8;
      run(ready, failing ? 'failure' : 'success', failing ? 'HTTP probe failed with statuscode: 503' : '');
      if (ticks % 3 === 0) run(live, 'success', '');
      if (startup.effective !== 'success') run(startup, ticks > 4 ? 'success' : 'failure', ticks > 4 ? '' : 'command "test -f /tmp/started" exited with 1');
      run(crash, ticks % 2 ? 'failure' : 'success', ticks % 2 ? 'Get "http://10.88.0.8:8080/live": dial tcp 10.88.0.8:8080: connect: connection refused' : '');
    },
  };
}
