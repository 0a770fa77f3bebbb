/**
 * pods.why and the `why` of pods.list rows, against a fake kubelet: the facts come from the bus (the pod's
 * k8s events, matched by UID — a namesake's old events are not used) and the probe workers; a pod Running and
 * Ready has none. The texts themselves are table-tested in packages/core/src/status/pod-why.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProbeWorkerInfo } from '@nodelet/core/kubelet';
import { createStreamHub } from '../streams/hub.ts';
import type { FlightRecorderApi, RecorderEntry } from '../recorder/types.ts';
import { FakeKubelet, fakePod } from '../testing/fake-kubelet.ts';
import { appRouter } from './router.ts';

function setup(recorder?: FlightRecorderApi) {
  const kubelet = new FakeKubelet();
  const image = fakePod('default', 'bad-image', ['app'], 'Pending');
  image.status!.containerStatuses = [{ name: 'app', image: 'localhost/x:1', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "localhost/x:1"' } } }];
  const web = fakePod('default', 'web', ['app']);
  web.status!.conditions = [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }];
  web.status!.containerStatuses = [{ name: 'app', image: 'i', imageID: '', ready: false, started: true, restartCount: 0, state: { running: {} } }];
  const ok = fakePod('default', 'ok', ['app']);
  ok.status!.conditions = [{ type: 'Ready', status: 'True' }];
  kubelet.pods = [image, web, ok];
  const ev = (uid: string, message: string) => ({
    type: 'k8sEvent' as const, eventType: 'Warning' as const, reason: 'Failed', message, count: 1,
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'bad-image', uid }, firstTimestamp: '', lastTimestamp: '',
  });
  kubelet.events.publish(ev('uid-default-bad-image', 'Failed to pull image "localhost/x:1": manifest unknown'));
  kubelet.events.publish(ev('an-older-pod', 'Failed to pull image "localhost/x:1": connection refused'));
  const probe: ProbeWorkerInfo = {
    pod: { namespace: 'default', name: 'web', uid: 'uid-default-web' }, container: 'app', probeType: 'readiness', handler: 'httpGet', target: 'http://:8080/healthz',
    initialDelaySeconds: 0, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3, containerId: 'c1',
    effective: 'failure', lastResult: 'failure', consecutive: 12, onHold: false,
    lastRun: { time: '', result: 'failure', output: 'HTTP probe failed with statuscode: 503', latencyMs: 2 },
  };
  Object.assign(kubelet, { probes: { list: () => [probe], metrics: async () => ({ contentType: '', body: '' }), requestEveryRun: () => () => {}, everyRun: () => false } });
  return appRouter.createCaller({ kubelet, streams: createStreamHub(kubelet), user: { name: 't', groups: [] }, ...(recorder ? { recorder } : {}) });
}

test('pods.list carries the why of each pod not Running and Ready; pods.why answers the same for one pod', async () => {
  const call = setup();
  const rows = await call.pods.list();
  const why = Object.fromEntries(rows.map((p) => [p.metadata?.name, p.why?.text]));
  assert.deepEqual(why, {
    'bad-image': 'image localhost/x:1 cannot be pulled (ErrImagePull: manifest unknown); retrying',
    web: 'readiness probe failing for 60 s: HTTP 503 from :8080/healthz',
    ok: undefined,
  });
  assert.equal((await call.pods.why({ namespace: 'default', name: 'web' }))?.text, why.web);
  assert.equal((await call.pods.why({ namespace: 'default', name: 'bad-image' }))?.reason, 'ImagePullBackOff');
  assert.equal(await call.pods.why({ namespace: 'default', name: 'ok' }), null);
  assert.equal(await call.pods.why({ namespace: 'default', name: 'missing' }), null);
});

test('with the flight recorder, a failing probe has failed since its span of failures began', async () => {
  const span: RecorderEntry = {
    id: 7, time: new Date(Date.now() - 300_000).toISOString(), count: 300, kind: 'probe', podUID: 'uid-default-web',
    container: 'app', reason: 'failure', details: { probeType: 'readiness' },
  };
  const asked: unknown[] = [];
  const recorder: FlightRecorderApi = {
    query: (q) => (asked.push(q), { entries: [span] }),
    follow: () => () => {},
    stats: () => ({ path: '', rows: 1, bytes: 0, queued: 0, dropped: 0, maxBytes: 0, maxAgeMs: 0 }),
  };
  const call = setup(recorder);
  assert.equal((await call.pods.why({ namespace: 'default', name: 'web' }))?.text, 'readiness probe failing for 5 m: HTTP 503 from :8080/healthz');
  assert.deepEqual(asked, [{ podUID: 'uid-default-web', kinds: ['probe'], order: 'desc', limit: 50 }]);
});
