// The tail's why line (#16 item 5): printed when a pod's explanation changes, not on every event; built from
// the podStatus event's status and the pod's k8s events / probe results the stream carried before it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NodeletEvent, PodStatusBusEvent } from '@nodelet/core/events';
import { WhyLines } from './why-lines.ts';

const t = '2026-11-26T06:00:00.000Z';
const pod = { namespace: 'default', name: 'web', uid: 'u1' };
let seq = 0;
const status = (s: PodStatusBusEvent['status']): NodeletEvent => ({ type: 'podStatus', seq: ++seq, time: t, pod, phase: s.phase ?? '', ready: false, containers: [], status: s });
const pulling = (reason: string): NodeletEvent => status({ phase: 'Pending', containerStatuses: [{ name: 'app', image: 'localhost/x:1', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason } } }] });
const running = (ready: boolean): NodeletEvent => status({
  phase: 'Running',
  conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
  containerStatuses: [{ name: 'app', image: 'i', imageID: '', ready, started: true, restartCount: 0, state: { running: {} } }],
});

test('why lines: one per change of the explanation, from the facts the stream carried', () => {
  const w = new WhyLines();
  const out = [
    w.observe({ type: 'k8sEvent', seq: ++seq, time: t, eventType: 'Warning', reason: 'Failed', message: 'Failed to pull image "localhost/x:1": not found', involvedObject: { kind: 'Pod', ...pod }, count: 1, firstTimestamp: t, lastTimestamp: t }),
    w.observe(pulling('ErrImagePull')),
    w.observe(pulling('ImagePullBackOff')),
    w.observe(pulling('ImagePullBackOff')),
    w.observe({ type: 'probe', seq: ++seq, time: t, pod, container: 'app', probeType: 'readiness', result: 'failure', output: 'HTTP probe failed with statuscode: 503', latencyMs: 1 }),
    w.observe(running(false)),
    w.observe(running(true)),
    w.observe(running(true)),
  ];
  assert.deepEqual(out.map((l) => l?.replace(/\s+/g, ' ')), [
    undefined,
    `${t} why default/web image localhost/x:1 cannot be pulled (ErrImagePull); retrying`,
    `${t} why default/web image localhost/x:1 cannot be pulled (ErrImagePull: not found); retrying`,
    undefined,
    undefined,
    `${t} why default/web readiness probe failing: HTTP 503`,
    `${t} why default/web (running and ready)`,
    undefined,
  ]);
});

test('why lines: a pod that starts ready prints nothing; a removed pod is forgotten', () => {
  const w = new WhyLines();
  assert.equal(w.observe(running(true)), undefined);
  assert.equal(w.observe({ type: 'podConfig', seq: ++seq, time: t, pod, op: 'REMOVE', source: 'file' }), undefined);
});
